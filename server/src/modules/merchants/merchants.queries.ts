import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { apiCredentials, branches, devices, merchants, type CredentialKind } from '../../db/schema';

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

export async function lockProvisioning(db: Queryable) {
  await db.execute(sql`select pg_advisory_xact_lock(7270002)`);
}

export async function countMerchants(db: Queryable): Promise<number> {
  const [row] = await db.select({ n: count() }).from(merchants);
  return row?.n ?? 0;
}
