import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { param, reusableStatement } from '../../db/reusable-query';
import { callbackAttempts, callbackDeliveries, transactions } from '../../db/schema';
import type { Principal } from '../../auth/principal';
import type { AfterAttempt } from './retry-schedule';
import { transactionScope } from '../../db/transaction-scope';

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
  /** The secret before a roll, while its overlap lasts (by the service clock): it signs beside `hmacSecret`. */
  previousHmacSecret: string | null;
  /** For an event sent to a webhook endpoint: the event and the endpoint's secret; null for a transaction's callback. */
  endpointEvent: EndpointEvent | null;
}

/** An event a delivery sends to a webhook endpoint. */
export interface EndpointEvent {
  endpointId: string;
  /** The endpoint's `whsec_` secret: it alone signs. */
  secret: string;
  /** Disabled or removed since the delivery was queued: nothing is sent. */
  off: boolean;
  eventId: string;
  type: string;
  createdAt: Date;
  /** The refund object as JSON text, on refund events. */
  refund: string | null;
}

/**
 * Claims up to `limit` due deliveries: locks them (SKIP LOCKED, so instances never take the same row), moves
 * their next attempt a lease into the future, and records the attempt as started, all before anything is
 * sent and all in one statement. A crash after this only delays the attempt until the lease runs out; it is then
 * sent again with the same webhook-id.
 */
export async function claimDueDeliveries(db: Database, now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const rows = await claimStatement(db, { now, leaseEnds: new Date(now.getTime() + leaseMs), limit });
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
    previousHmacSecret: r.previous_hmac_secret,
    endpointEvent:
      r.endpoint_id === null
        ? null
        : {
            endpointId: r.endpoint_id,
            secret: r.endpoint_secret!,
            off: r.endpoint_off!,
            eventId: r.merchant_event_id!,
            type: r.merchant_event_type!,
            createdAt: new Date(r.merchant_event_at!),
            refund: r.merchant_event_refund,
          },
  }));
}

/** A claimed delivery as the statement answers it (timestamps as text). */
interface ClaimedRow {
  delivery_id: string;
  event_id: string;
  attempt_count: number;
  url: string;
  method: 'GET' | 'POST';
  schedule_position: number;
  window_started_at: string;
  payload: string;
  transaction_number: string;
  hmac_secret: string;
  previous_hmac_secret: string | null;
  endpoint_id: string | null;
  endpoint_secret: string | null;
  endpoint_off: boolean | null;
  merchant_event_id: string | null;
  merchant_event_type: string | null;
  merchant_event_at: string | null;
  merchant_event_refund: string | null;
}

const claimStatement = reusableStatement({ now: param.timestamp, leaseEnds: param.timestamp, limit: param.integer }, (_db, slots) => {
  const { now } = slots;
  return sql<ClaimedRow>`
    with due as (
      select id from callback_deliveries
      where state = 'pending' and next_attempt_at <= ${now}
      order by next_attempt_at
      limit ${slots.limit}
      for update skip locked
    ), claimed as (
      update callback_deliveries d
      set attempt_count = d.attempt_count + 1,
          next_attempt_at = ${slots.leaseEnds},
          window_started_at = coalesce(d.window_started_at, ${now}),
          updated_at = ${now}
      from due where d.id = due.id
      returning d.*
    ), started as (
      insert into callback_attempts (delivery_id, attempt_no, started_at)
      select id, attempt_count, ${now} from claimed
    )
    select c.id as delivery_id, c.event_id, c.attempt_count, c.url, c.method, c.schedule_position, c.window_started_at,
           e.payload, t.transaction_number, m.hmac_secret,
           case when m.previous_hmac_secret_expires_at > ${now} then m.previous_hmac_secret end as previous_hmac_secret,
           c.endpoint_id, w.secret as endpoint_secret, (w.disabled or w.deleted_at is not null) as endpoint_off,
           me.id as merchant_event_id, me.type as merchant_event_type, me.created_at as merchant_event_at, me.refund as merchant_event_refund
    from claimed c
    join transaction_events e on e.id = c.event_id
    join transactions t on t.id = c.transaction_id
    join merchants m on m.id = c.merchant_id
    left join webhook_endpoints w on w.id = c.endpoint_id
    left join merchant_events me on me.id = c.merchant_event_id`;
});

/** An attempt's outcome and what follows it, as the dispatcher hands it to `recordOutcomes`. */
export interface AttemptOutcome {
  deliveryId: string;
  attemptNo: number;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  next: AfterAttempt;
  finishedAt: Date;
}

/**
 * What became of an outcome: `recorded`, or `superseded` when its attempt no longer holds the delivery (its lease ran
 * out and the delivery was claimed again, or a redelivery started it over), so that what follows it was not written.
 */
export type OutcomeWrite = 'recorded' | 'superseded';

/**
 * Writes the outcomes of attempts that ended together, and what follows each, in one statement: the attempt rows
 * and the delivery rows updated from one set of rows (`update … from json_to_recordset(…)`, the rows passed as one
 * JSON parameter, so the statement text is the same whatever their number and is prepared once). All or nothing:
 * should it fail, no outcome of the batch is written, and each of its deliveries stays claimed until its lease
 * ends and is then sent again with the same webhook-id (at least once, as when an instance dies mid-attempt).
 *
 * Only the attempt that holds its delivery decides what follows it (the guard in the statement): a late outcome of
 * an older attempt is written to that attempt's own log entry and nowhere else, so it can neither overwrite a newer
 * attempt's outcome nor undo a redelivery, and two outcomes of one delivery in one batch give one answer whatever
 * their order. Resolves with what became of each outcome, in the order given.
 */
export async function recordOutcomes(db: Database, outcomes: readonly AttemptOutcome[]): Promise<OutcomeWrite[]> {
  if (outcomes.length === 0) return [];
  // One source row per attempt: should the same attempt come twice, the last one given counts.
  const latest = new Map<string, AttemptOutcome>();
  for (const o of outcomes) latest.set(attemptKey(o.deliveryId, o.attemptNo), o);
  const rows = [...latest.values()].map((o) => ({
    delivery_id: o.deliveryId,
    attempt_no: o.attemptNo,
    http_status: o.httpStatus,
    error: o.error,
    duration_ms: o.durationMs,
    finished_at: o.finishedAt.toISOString(),
    state: o.next.state,
    next_attempt_at: o.next.state === 'pending' ? o.next.nextAttemptAt.toISOString() : null,
    schedule_position: o.next.state === 'pending' ? o.next.schedulePosition : null,
  }));
  const decided = await outcomesStatement(db, { rows: JSON.stringify(rows) });
  const recorded = new Set(decided.map((r) => attemptKey(r.delivery_id, r.attempt_no)));
  return outcomes.map((o) =>
    latest.get(attemptKey(o.deliveryId, o.attemptNo)) === o && recorded.has(attemptKey(o.deliveryId, o.attemptNo)) ? 'recorded' : 'superseded',
  );
}

const attemptKey = (deliveryId: string, attemptNo: number) => `${deliveryId}/${attemptNo}`;

/**
 * The attempt that holds a delivery is its last claim (`attempt_count`, which each claim raises and nothing else
 * changes) for as long as the delivery is still pending and no redelivery came after that claim: a redelivery
 * clears `window_started_at`, which only a claim sets again. The guard is in the UPDATE's WHERE, so it is checked
 * again on the row as it is once locked, should a claim or a redelivery commit meanwhile.
 */
const outcomesStatement = reusableStatement(
  { rows: param.json },
  (_db, slots) => sql<{ delivery_id: string; attempt_no: number }>`
    with v as (
      select * from json_to_recordset(${slots.rows}) as v(
        delivery_id uuid, attempt_no integer, http_status smallint, error text, duration_ms integer, finished_at timestamptz,
        state text, next_attempt_at timestamptz, schedule_position integer)
    ), attempts as (
      update callback_attempts a
      set http_status = v.http_status, error = v.error, duration_ms = v.duration_ms, finished_at = v.finished_at
      from v where a.delivery_id = v.delivery_id and a.attempt_no = v.attempt_no and a.finished_at is null
      returning v.*
    )
    update callback_deliveries d
    set state = x.state, next_attempt_at = x.next_attempt_at,
        schedule_position = coalesce(x.schedule_position, d.schedule_position), updated_at = x.finished_at
    from attempts x
    where d.id = x.delivery_id
      and d.state = 'pending' and d.attempt_count = x.attempt_no and d.window_started_at is not null
    returning d.id as delivery_id, x.attempt_no`,
);

/** The id of a transaction the caller may see, by its number; null when it does not exist for them. */
export async function visibleTransactionId(db: Queryable, principal: Principal, transactionNumber: string): Promise<string | null> {
  const [row] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.transactionNumber, transactionNumber), transactionScope(principal)))
    .limit(1);
  return row?.id ?? null;
}

/** The callback log of one transaction (its own callbackURL's deliveries, not its events' to webhook endpoints), attempts included, oldest first. */
export async function listDeliveries(db: Queryable, transactionId: string) {
  const deliveries = await db
    .select()
    .from(callbackDeliveries)
    .where(and(eq(callbackDeliveries.transactionId, transactionId), isNull(callbackDeliveries.endpointId)))
    .orderBy(asc(callbackDeliveries.sequence), asc(callbackDeliveries.createdAt));
  if (deliveries.length === 0) return [];
  const attempts = await db
    .select()
    .from(callbackAttempts)
    .where(
      inArray(
        callbackAttempts.deliveryId,
        deliveries.map((d) => d.id),
      ),
    )
    .orderBy(asc(callbackAttempts.attemptNo));
  return deliveries.map((d) => ({ delivery: d, attempts: attempts.filter((a) => a.deliveryId === d.id) }));
}

/** The channel that wakes every instance's dispatcher (a redelivery is due now). */
export const CALLBACKS_WAKE_CHANNEL = 'svc_callbacks_wake';

/**
 * Starts a delivery the caller may see again from the beginning of the schedule (its attempts stay in the log),
 * and wakes the dispatchers. Null when no such delivery exists for this caller. An attempt in flight meanwhile
 * no longer holds the delivery (clearing `window_started_at` says so; see outcomesStatement): its outcome is
 * logged with it but decides nothing, and the delivery is sent again.
 */
export async function restartDelivery(db: Queryable, principal: Principal, deliveryId: string, now: Date) {
  return db.transaction(async (tx) => {
    const visible = tx.select({ id: transactions.id }).from(transactions).where(transactionScope(principal));
    const [row] = await tx
      .update(callbackDeliveries)
      .set({ state: 'pending', nextAttemptAt: now, schedulePosition: 0, windowStartedAt: null, updatedAt: now })
      .where(
        and(eq(callbackDeliveries.id, deliveryId), eq(callbackDeliveries.merchantId, principal.merchantId), inArray(callbackDeliveries.transactionId, visible)),
      )
      .returning();
    if (row) await tx.execute(sql`select pg_notify(${CALLBACKS_WAKE_CHANNEL}, '')`);
    return row ?? null;
  });
}
