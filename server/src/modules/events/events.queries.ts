import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { callbackDeliveries, merchantEvents, transactionEvents, webhookEndpoints } from '../../db/schema';
import { CALLBACKS_WAKE_CHANNEL } from '../callbacks/sql';

export interface EventRow {
  id: string;
  type: string;
  createdAt: Date;
  /** The refund object as JSON text, on refund events. */
  refund: string | null;
  /** The transaction object as JSON text, as its event carried it. */
  transaction: string;
}

/**
 * A page of the merchant's event log: newest first, created at or after `since`, after the event `startingAfter` (an
 * event the merchant does not have gives an empty page), of one type when asked. `limit` rows at most.
 */
export async function listEvents(
  db: Queryable,
  merchantId: string,
  page: { limit: number; since: Date; startingAfter?: string; type?: string },
): Promise<EventRow[]> {
  const after = page.startingAfter
    ? sql`and e.position < (select position from ${merchantEvents} where id = ${page.startingAfter} and merchant_id = ${merchantId})`
    : sql``;
  const type = page.type ? sql`and e.type = ${page.type}` : sql``;
  const rows = await db.execute<{ id: string; type: string; created_at: string | Date; refund: string | null; payload: string }>(sql`
    select e.id, e.type, e.created_at, e.refund, t.payload
    from ${merchantEvents} e
    join ${transactionEvents} t on t.id = e.transaction_event_id
    where e.merchant_id = ${merchantId} and e.created_at >= ${page.since.toISOString()} ${type} ${after}
    order by e.position desc
    limit ${page.limit}`);
  return [...rows].map((r) => ({ id: r.id, type: r.type, createdAt: new Date(r.created_at), refund: r.refund, transaction: r.payload }));
}

/**
 * Sends the merchant's event to the merchant's endpoint again from the start of the retry schedule, or for the first
 * time (a delivery of its own, as the event's statement would have queued it), and wakes the dispatchers. Null when the
 * merchant has no such event or no such endpoint. An attempt in flight meanwhile no longer holds the delivery (see
 * the callbacks' outcomes statement): its outcome is logged and decides nothing.
 */
export async function redeliverEvent(
  db: Queryable,
  merchantId: string,
  eventId: string,
  endpointId: string,
  now: Date,
): Promise<{ deliveryId: string; nextAttemptAt: Date } | null> {
  const at = now.toISOString();
  const rows = await db.execute<{ id: string; next_attempt_at: string | Date }>(sql`
    insert into ${callbackDeliveries} as d (event_id, endpoint_id, merchant_event_id, transaction_id, merchant_id, sequence, url, method, next_attempt_at, created_at, updated_at)
    select e.transaction_event_id, w.id, e.id, e.transaction_id, e.merchant_id, t.sequence, w.url, 'POST', ${at}, ${at}, ${at}
    from ${merchantEvents} e
    join ${transactionEvents} t on t.id = e.transaction_event_id
    join ${webhookEndpoints} w on w.id = ${endpointId} and w.merchant_id = ${merchantId} and w.deleted_at is null
    where e.id = ${eventId} and e.merchant_id = ${merchantId}
    on conflict (merchant_event_id, endpoint_id) where endpoint_id is not null do update
      set state = 'pending', next_attempt_at = excluded.next_attempt_at, schedule_position = 0, window_started_at = null,
          url = excluded.url, updated_at = excluded.updated_at
    returning d.id, d.next_attempt_at`);
  const [row] = [...rows];
  if (!row) return null;
  await db.execute(sql`select pg_notify(${CALLBACKS_WAKE_CHANNEL}, '')`);
  return { deliveryId: row.id, nextAttemptAt: new Date(row.next_attempt_at) };
}
