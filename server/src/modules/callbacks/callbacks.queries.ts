import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { callbackAttempts, callbackDeliveries, transactions } from '../../db/schema';
import type { Principal } from '../../auth/principal';
import { transactionScope } from '../transactions';
import type { AfterAttempt } from './retry-schedule';

export interface ClaimedDelivery {
  deliveryId: string;
  eventId: string;
  attemptNo: number;
  url: string;
  method: 'GET' | 'POST';
  schedulePosition: number;
  windowStartedAt: Date;
  payload: string;
  transactionNumber: string;
  hmacSecret: string;
}

/**
 * Claims up to `limit` due deliveries: locks them (SKIP LOCKED, so instances never take the same row), moves
 * their next attempt a lease into the future, and records the attempt as started, all before anything is
 * sent. A crash after this only delays the attempt until the lease runs out; it is then sent again with the
 * same webhook-id.
 */
export async function claimDueDeliveries(db: Database, now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  return db.transaction(async (tx) => {
    const rows = await tx.execute<{
      delivery_id: string;
      event_id: string;
      attempt_count: number;
      url: string;
      method: 'GET' | 'POST';
      schedule_position: number;
      window_started_at: Date | string;
      payload: string;
      transaction_number: string;
      hmac_secret: string;
    }>(sql`
      with due as (
        select id from callback_deliveries
        where state = 'pending' and next_attempt_at <= ${now.toISOString()}::timestamptz
        order by next_attempt_at
        limit ${limit}
        for update skip locked
      ), claimed as (
        update callback_deliveries d
        set attempt_count = d.attempt_count + 1,
            next_attempt_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz,
            window_started_at = coalesce(d.window_started_at, ${now.toISOString()}::timestamptz),
            updated_at = ${now.toISOString()}::timestamptz
        from due where d.id = due.id
        returning d.*
      )
      select c.id as delivery_id, c.event_id, c.attempt_count, c.url, c.method, c.schedule_position, c.window_started_at,
             e.payload, t.transaction_number, m.hmac_secret
      from claimed c
      join transaction_events e on e.id = c.event_id
      join transactions t on t.id = c.transaction_id
      join merchants m on m.id = c.merchant_id`);
    if (rows.length === 0) return [];
    await tx.insert(callbackAttempts).values(rows.map((r) => ({ deliveryId: r.delivery_id, attemptNo: r.attempt_count, startedAt: now })));
    return rows.map((r) => ({
      deliveryId: r.delivery_id,
      eventId: r.event_id,
      attemptNo: r.attempt_count,
      url: r.url,
      method: r.method,
      schedulePosition: r.schedule_position,
      windowStartedAt: new Date(r.window_started_at),
      payload: r.payload,
      transactionNumber: r.transaction_number,
      hmacSecret: r.hmac_secret,
    }));
  });
}

/** Writes an attempt's outcome and what follows it, in one transaction. */
export async function completeAttempt(
  db: Database,
  claimed: Pick<ClaimedDelivery, 'deliveryId' | 'attemptNo'>,
  outcome: { httpStatus: number | null; error: string | null; durationMs: number },
  next: AfterAttempt,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(callbackAttempts)
      .set({ httpStatus: outcome.httpStatus, error: outcome.error, durationMs: outcome.durationMs, finishedAt: now })
      .where(and(eq(callbackAttempts.deliveryId, claimed.deliveryId), eq(callbackAttempts.attemptNo, claimed.attemptNo)));
    await tx
      .update(callbackDeliveries)
      .set(
        next.state === 'pending'
          ? { state: 'pending', nextAttemptAt: next.nextAttemptAt, schedulePosition: next.schedulePosition, updatedAt: now }
          : { state: next.state, nextAttemptAt: null, updatedAt: now },
      )
      .where(eq(callbackDeliveries.id, claimed.deliveryId));
  });
}

/** The delivery log of one transaction, attempts included, oldest first. */
export async function listDeliveries(db: Queryable, transactionId: string) {
  const deliveries = await db.select().from(callbackDeliveries).where(eq(callbackDeliveries.transactionId, transactionId)).orderBy(asc(callbackDeliveries.sequence), asc(callbackDeliveries.createdAt));
  if (deliveries.length === 0) return [];
  const attempts = await db
    .select()
    .from(callbackAttempts)
    .where(inArray(callbackAttempts.deliveryId, deliveries.map((d) => d.id)))
    .orderBy(asc(callbackAttempts.attemptNo));
  return deliveries.map((d) => ({ delivery: d, attempts: attempts.filter((a) => a.deliveryId === d.id) }));
}

/** The channel that wakes every instance's dispatcher (a redelivery is due now). */
export const CALLBACKS_WAKE_CHANNEL = 'svc_callbacks_wake';

/**
 * Starts a delivery the caller may see again from the beginning of the schedule (its attempts stay in the log),
 * and wakes the dispatchers. Null when no such delivery exists for this caller.
 */
export async function restartDelivery(db: Database, principal: Principal, deliveryId: string, now: Date) {
  return db.transaction(async (tx) => {
    const visible = tx.select({ id: transactions.id }).from(transactions).where(transactionScope(principal));
    const [row] = await tx
      .update(callbackDeliveries)
      .set({ state: 'pending', nextAttemptAt: now, schedulePosition: 0, windowStartedAt: null, updatedAt: now })
      .where(and(eq(callbackDeliveries.id, deliveryId), eq(callbackDeliveries.merchantId, principal.merchantId), inArray(callbackDeliveries.transactionId, visible)))
      .returning();
    if (row) await tx.execute(sql`select pg_notify(${CALLBACKS_WAKE_CHANNEL}, '')`);
    return row ?? null;
  });
}
