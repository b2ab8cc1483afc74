import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { columnParam, reusableStatement } from '../db/reusable-query';
import { idempotencyKeys } from '../db/schema';
import type { StoredAnswer } from './stored-answer';

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

const claim = reusableStatement(
  {
    merchantId: columnParam(idempotencyKeys.merchantId),
    key: columnParam(idempotencyKeys.key),
    requestHash: columnParam(idempotencyKeys.requestHash),
    createdAt: columnParam(idempotencyKeys.createdAt),
    expiresAt: columnParam(idempotencyKeys.expiresAt),
  },
  (_db, s) => sql<{ claimed: boolean }>`with never_wait as (select set_config('lock_timeout', '1ms', true)), claimed as (
      insert into ${idempotencyKeys} (merchant_id, key, request_hash, response_status, response_body, created_at, expires_at)
      select ${s.merchantId}, ${s.key}, ${s.requestHash}, null, null, ${s.createdAt}, ${s.expiresAt} from never_wait
      on conflict (merchant_id, key) do update set request_hash = excluded.request_hash, response_status = null, response_body = null,
        created_at = excluded.created_at, expires_at = excluded.expires_at
      where ${idempotencyKeys.expiresAt} <= excluded.created_at
      returning 1
    )
    select count(*) > 0 as claimed, set_config('lock_timeout', null, true) from claimed`,
);

/**
 * Claims the key for the running transaction: its row, inserted with no answer yet (or an expired one taken over), is
 * held by this transaction until it commits with the answer or rolls back, and is the key's only lock: a row, which a
 * transaction pooler and an engine that shards by merchant keep alike. False when the key is taken by a committed
 * request (answered, or in flight at the processor). Never waits on another request holding it: the statement runs
 * under a 1 ms lock_timeout (reset to the session's own once it has run) and fails with 55P03 instead
 * (`isKeyHeldElsewhere`), aborting the transaction, which then has nothing left to do.
 */
export async function claimKey(
  db: Queryable,
  merchantId: string,
  key: string,
  row: Pick<IdempotencyKeyRow, 'requestHash' | 'createdAt' | 'expiresAt'>,
): Promise<boolean> {
  const [result] = await claim(db, { merchantId, key, ...row });
  return result?.claimed === true;
}

/** Whether `error` is a key claim that met another request's claim of the same key (lock_not_available). */
export function isKeyHeldElsewhere(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '55P03') return true;
  }
  return false;
}

export async function findIdempotencyKey(db: Queryable, merchantId: string, key: string): Promise<IdempotencyKeyRow | null> {
  const [stored] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return stored ?? null;
}

/** Stores the response under the key: over the transaction's own claim (claimKey). */
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
