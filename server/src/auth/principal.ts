import type { CredentialKind } from '../db/schema';

/** Who is calling, as resolved from a credential. Every query is scoped by it. */
export interface Principal {
  credentialId: string;
  kind: CredentialKind;
  merchantId: string;
  branchId: string | null;
  deviceId: string | null;
  allowedOrigins: string[];
}

/** The principal a stored credential stands for (HTTP requests and websocket upgrades alike). */
export function principalFromCredential(credential: { id: string } & Omit<Principal, 'credentialId'>): Principal {
  const { id, kind, merchantId, branchId, deviceId, allowedOrigins } = credential;
  return { credentialId: id, kind, merchantId, branchId, deviceId, allowedOrigins };
}
