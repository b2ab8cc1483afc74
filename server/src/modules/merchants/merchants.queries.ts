import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { apiCredentials, branches, devices, merchants, serviceSettings, type CredentialKind } from '../../db/schema';

export async function insertMerchant(db: Queryable, values: { name: string; hmacSecret: string; isSandboxDemo?: boolean }) {
  const [row] = await db.insert(merchants).values(values).returning();
  return row!;
}

export async function insertBranch(db: Queryable, values: { merchantId: string; name: string }) {
  const [row] = await db.insert(branches).values(values).returning();
  return row!;
}

export async function insertDevice(db: Queryable, values: { merchantId: string; branchId: string; name: string }) {
  const [row] = await db.insert(devices).values(values).returning();
  return row!;
}

export async function insertCredential(
  db: Queryable,
  values: {
    merchantId: string;
    branchId?: string | null;
    deviceId?: string | null;
    kind: CredentialKind;
    secretHash: Buffer;
    hint: string;
    allowedOrigins?: string[];
  },
) {
  const [row] = await db.insert(apiCredentials).values(values).returning({ id: apiCredentials.id });
  return row!;
}

export async function findMerchant(db: Queryable, merchantId: string) {
  const [row] = await db.select().from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  return row ?? null;
}

export async function findSandboxDemoMerchant(db: Queryable) {
  const [row] = await db.select().from(merchants).where(eq(merchants.isSandboxDemo, true)).limit(1);
  return row ?? null;
}

export async function firstBranchAndDevice(db: Queryable, merchantId: string) {
  const [row] = await db
    .select({ branchId: branches.id, deviceId: devices.id, stickerCode: devices.stickerCode })
    .from(branches)
    .innerJoin(devices, eq(devices.branchId, branches.id))
    .where(eq(branches.merchantId, merchantId))
    .orderBy(branches.createdAt, devices.createdAt)
    .limit(1);
  return row ?? null;
}

/** Revokes every live credential of a merchant (the sandbox re-issues the demo merchant's when its file is lost). */
export async function revokeCredentials(db: Queryable, merchantId: string, at: Date) {
  await db
    .update(apiCredentials)
    .set({ revokedAt: at })
    .where(and(eq(apiCredentials.merchantId, merchantId), isNull(apiCredentials.revokedAt)));
}

export async function updateHmacSecret(db: Queryable, merchantId: string, hmacSecret: string) {
  await db.update(merchants).set({ hmacSecret }).where(eq(merchants.id, merchantId));
}

/**
 * Claims, until the transaction ends, the service's one settings row (inserted with `publicBaseUrl` when missing, else
 * locked as it is): two instances starting at once on one database provision the sandbox one after the other.
 */
export async function lockProvisioning(db: Queryable, publicBaseUrl: string, now: Date) {
  await db
    .insert(serviceSettings)
    .values({ id: 1, publicBaseUrl, updatedAt: now })
    .onConflictDoUpdate({ target: serviceSettings.id, set: { updatedAt: sql`${serviceSettings.updatedAt}` } });
}

export async function countMerchants(db: Queryable): Promise<number> {
  const [row] = await db.select({ n: count() }).from(merchants);
  return row?.n ?? 0;
}
