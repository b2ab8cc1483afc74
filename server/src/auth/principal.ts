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
