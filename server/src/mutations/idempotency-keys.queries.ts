import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import type { StoredAnswer } from './stored-answer';

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

/** Takes the transaction-scoped advisory lock `lockKey` if it is free; never waits. */
export async function tryAdvisoryXactLock(db: Queryable, lockKey: string): Promise<boolean> {
  const [lock] = await db.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${lockKey}::bigint) as locked`);
  return lock?.locked === true;
}

export async function findIdempotencyKey(db: Queryable, merchantId: string, key: string): Promise<IdempotencyKeyRow | null> {
  const [stored] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return stored ?? null;
}

/** Stores (or replaces an expired) response under the key. */
export async function storeResponse(
  db: Queryable,
  merchantId: string,
  key: string,
  row: Pick<IdempotencyKeyRow, 'requestHash' | 'responseStatus' | 'responseBody' | 'createdAt' | 'expiresAt'>,
): Promise<void> {
  await db
    .insert(idempotencyKeys)
    .values({ merchantId, key, ...row })
    .onConflictDoUpdate({ target: [idempotencyKeys.merchantId, idempotencyKeys.key], set: row });
}

/**
 * The answer of a request whose outcome waited on the processor, filled in beside the outcome (by the request, or by
 * the worker that finished it after a crash); only while the key is still marked in flight, and still the one the
 * request took at `takenAt` (not the same key taken again by another request after it expired).
 */
export async function fillInFlightAnswer(db: Queryable, merchantId: string, key: string, takenAt: Date | null, answer: StoredAnswer): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: answer.status, responseBody: answer.body })
    .where(inFlightKeyOf(merchantId, key, takenAt));
}

/** A key left in flight by a request that ended without an answer to keep (its payment was reversed): free again. */
export async function forgetInFlightKey(db: Queryable, merchantId: string, key: string, takenAt: Date | null): Promise<void> {
  await db.delete(idempotencyKeys).where(inFlightKeyOf(merchantId, key, takenAt));
}

/** The key as the request took it at `takenAt` (its row's created_at), still in flight. Null: a request queued before the time was kept. */
function inFlightKeyOf(merchantId: string, key: string, takenAt: Date | null) {
  const keys = idempotencyKeys;
  return and(eq(keys.merchantId, merchantId), eq(keys.key, key), isNull(keys.responseStatus), takenAt ? eq(keys.createdAt, takenAt) : undefined);
}

/**
 * Deletes up to `limit` keys that expired by `now`, oldest first (through the index on expires_at), and answers how
 * many. Rows another transaction holds (a request replacing an expired key) are skipped, never waited on.
 */
export async function deleteExpiredKeys(db: Queryable, now: Date, limit: number): Promise<number> {
  const keys = idempotencyKeys;
  const due = db
    .select({ merchantId: keys.merchantId, key: keys.key })
    .from(keys)
    .where(lte(keys.expiresAt, now))
    .orderBy(keys.expiresAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const deleted = await db
    .delete(keys)
    .where(sql`(${keys.merchantId}, ${keys.key}) in (${due})`)
    .returning({ key: keys.key });
  return deleted.length;
}
