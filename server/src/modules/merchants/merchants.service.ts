import { isPlainOrigin, type ProvisionedMerchant } from '@svc/protocol';
import type { Database, Queryable } from '../../db/client';
import type { CredentialKind } from '../../db/schema';
import { credentialHint, generateCredential, generateHmacSecret } from './credentials';
import { insertBranch, insertCredential, insertDevice, insertMerchant } from './merchants.queries';
import { hashCredential } from '../../auth/credential-hash';

export interface ProvisionMerchantInput {
  name: string;
  /** Browser origins allowed to use the client ID (as OriginSchema reads them; anything else is refused). */
  origins: string[];
  isSandboxDemo?: boolean;
  /** The service's public origin (`PUBLIC_BASE_URL`), for the device's `stickerUrl`. */
  publicBaseUrl: string;
}

/** The public page of a device's sticker (docs/integrating.md#terminals-and-stickers). */
export function stickerUrlOf(publicBaseUrl: string, stickerCode: string): string {
  return `${publicBaseUrl}/s/${stickerCode}`;
}

/** Creates a merchant with one branch, one device, a merchant key, a branch key and a client ID, in one transaction. */
export async function provisionMerchant(db: Database, input: ProvisionMerchantInput): Promise<ProvisionedMerchant> {
  return db.transaction((tx) => createMerchantRecords(tx, input));
}

/** The rows of a new merchant, inside the caller's transaction. */
export async function createMerchantRecords(tx: Queryable, input: ProvisionMerchantInput): Promise<ProvisionedMerchant> {
  const hmacSecret = generateHmacSecret();
  const merchant = await insertMerchant(tx, { name: input.name, hmacSecret, isSandboxDemo: input.isSandboxDemo ?? false });
  const branch = await insertBranch(tx, { merchantId: merchant.id, name: 'Main branch' });
  const device = await insertDevice(tx, { merchantId: merchant.id, branchId: branch.id, name: 'Terminal 1' });
  const keys = await issueCredentials(tx, { merchantId: merchant.id, branchId: branch.id, deviceId: device.id, origins: input.origins });
  return { merchantId: merchant.id, branchId: branch.id, ...keys, hmacSecret, stickerUrl: stickerUrlOf(input.publicBaseUrl, device.stickerCode) };
}

/** Issues a fresh set of the four credentials for an existing branch and device. */
export async function issueCredentials(
  tx: Queryable,
  scope: { merchantId: string; branchId: string; deviceId: string; origins: string[] },
): Promise<Pick<ProvisionedMerchant, 'apiKey' | 'branchApiKey' | 'clientId' | 'deviceId'>> {
  // The CLI and the sandbox bootstrap come this way: an origin reaches the card frame's frame-ancestors as stored.
  const notOrigin = scope.origins.find((origin) => !isPlainOrigin(origin));
  if (notOrigin !== undefined) throw new Error(`${JSON.stringify(notOrigin)} is not an origin (scheme, host name and port)`);
  const issue = async (kind: CredentialKind, extra: { branchId?: string; deviceId?: string; allowedOrigins?: string[] }) => {
    const value = generateCredential(kind);
    await insertCredential(tx, { merchantId: scope.merchantId, kind, secretHash: hashCredential(value), hint: credentialHint(value), ...extra });
    return value;
  };
  return {
    apiKey: await issue('merchant_key', {}),
    branchApiKey: await issue('branch_key', { branchId: scope.branchId }),
    clientId: await issue('client', { branchId: scope.branchId, allowedOrigins: scope.origins }),
    deviceId: await issue('device', { branchId: scope.branchId, deviceId: scope.deviceId }),
  };
}
