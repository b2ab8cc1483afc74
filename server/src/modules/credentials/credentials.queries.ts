import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { apiCredentials, branches, merchants, type CredentialKind } from '../../db/schema';

const listed = {
  id: apiCredentials.id,
  kind: apiCredentials.kind,
  hint: apiCredentials.hint,
  secretHash: apiCredentials.secretHash,
  branchId: apiCredentials.branchId,
  deviceId: apiCredentials.deviceId,
  allowedOrigins: apiCredentials.allowedOrigins,
  createdAt: apiCredentials.createdAt,
  revokedAt: apiCredentials.revokedAt,
};

export type CredentialRecord = {
  id: string;
  kind: CredentialKind;
  hint: string;
  /** The key's hash, for this instance's credential cache; never shown. */
  secretHash: Buffer;
  branchId: string | null;
  deviceId: string | null;
  allowedOrigins: string[];
  createdAt: Date;
  revokedAt: Date | null;
};

/** Every credential of a merchant, revoked ones included, oldest first. */
export async function listMerchantCredentials(db: Queryable, merchantId: string): Promise<CredentialRecord[]> {
  return db.select(listed).from(apiCredentials).where(eq(apiCredentials.merchantId, merchantId)).orderBy(asc(apiCredentials.createdAt), asc(apiCredentials.id));
}

/** One credential of the merchant, as listed; null for another merchant's or an unknown id. */
export async function findMerchantCredential(db: Queryable, merchantId: string, credentialId: string): Promise<CredentialRecord | null> {
  const [row] = await db
    .select(listed)
    .from(apiCredentials)
    .where(and(eq(apiCredentials.id, credentialId), eq(apiCredentials.merchantId, merchantId)));
  return row ?? null;
}

/** One credential of the merchant, locked for the change that follows; null for another merchant's or an unknown id. */
export async function lockMerchantCredential(db: Queryable, merchantId: string, credentialId: string): Promise<CredentialRecord | null> {
  const [row] = await db
    .select(listed)
    .from(apiCredentials)
    .where(and(eq(apiCredentials.id, credentialId), eq(apiCredentials.merchantId, merchantId)))
    .for('update');
  return row ?? null;
}

export async function insertMerchantCredential(
  db: Queryable,
  values: { merchantId: string; kind: CredentialKind; branchId: string | null; secretHash: Buffer; hint: string; allowedOrigins: string[]; createdAt: Date },
): Promise<CredentialRecord> {
  const [row] = await db.insert(apiCredentials).values(values).returning(listed);
  return row!;
}

/** Revokes a live credential; the trigger on api_credentials tells every instance at commit. Null when it was already revoked. */
export async function revokeCredential(db: Queryable, credentialId: string, at: Date): Promise<CredentialRecord | null> {
  const [row] = await db
    .update(apiCredentials)
    .set({ revokedAt: at })
    .where(and(eq(apiCredentials.id, credentialId), isNull(apiCredentials.revokedAt)))
    .returning(listed);
  return row ?? null;
}

/** A client ID's new list of allowed origins; the trigger on api_credentials tells every instance at commit. */
export async function setAllowedOrigins(db: Queryable, credentialId: string, allowedOrigins: string[]): Promise<CredentialRecord> {
  const [row] = await db.update(apiCredentials).set({ allowedOrigins }).where(eq(apiCredentials.id, credentialId)).returning(listed);
  return row!;
}

export async function branchOfMerchant(db: Queryable, merchantId: string, branchId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: branches.id })
    .from(branches)
    .where(and(eq(branches.id, branchId), eq(branches.merchantId, merchantId)));
  return row !== undefined;
}

/**
 * The new secret signs from now on; the one it replaces signs beside it until `previousUntil` (null: from now on
 * only the new one). One statement, so two rolls at once leave one secret and the one before it, never a mix.
 */
export async function rollHmacSecret(db: Queryable, merchantId: string, secret: string, previousUntil: Date | null): Promise<boolean> {
  const rows = await db
    .update(merchants)
    .set({
      previousHmacSecret: previousUntil === null ? null : sql`${merchants.hmacSecret}`,
      previousHmacSecretExpiresAt: previousUntil,
      hmacSecret: secret,
    })
    .where(eq(merchants.id, merchantId))
    .returning({ id: merchants.id });
  return rows.length === 1;
}
