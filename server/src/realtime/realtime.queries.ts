import { and, asc, eq, gt, gte, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { transactionEvents, transactions } from '../db/schema';
import type { Audience, ScopeFilter } from './audience';
import { transactionScope } from '../db/transaction-scope';

/** An event as the websocket sends it: the stored payload text is spliced into the message, never re-serialised. */
export interface StoredEvent {
  eventId: string;
  sequence: number;
  payload: string;
}

/** An event of some transaction in a scope, as the catch-up reads it. */
export interface ScopedEvent extends StoredEvent {
  transactionNumber: string;
}

/** The transaction behind a payment link (the hosted page's only credential). */
export async function findLinkTransaction(db: Queryable, linkId: string) {
  const [row] = await db
    .select({ transactionId: transactions.id, transactionNumber: transactions.transactionNumber, merchantId: transactions.merchantId })
    .from(transactions)
    .where(eq(transactions.linkId, linkId))
    .limit(1);
  return row ?? null;
}

/** The transaction of this number if the audience may see it (else null: another merchant's or branch's is simply not found). */
export async function findVisibleTransaction(db: Queryable, audience: Audience, transactionNumber: string) {
  const visible = audience.kind === 'credential' ? transactionScope(audience.principal) : eq(transactions.id, audience.transactionId);
  const [row] = await db
    .select({ transactionId: transactions.id, sequence: transactions.sequence })
    .from(transactions)
    .where(and(eq(transactions.transactionNumber, transactionNumber), visible))
    .limit(1);
  return row ?? null;
}

/** The events of a transaction after `afterSequence`, oldest first, at most `limit`. */
export async function eventsAfter(db: Queryable, transactionId: string, afterSequence: number, limit: number): Promise<StoredEvent[]> {
  return db
    .select({ eventId: transactionEvents.id, sequence: transactionEvents.sequence, payload: transactionEvents.payload })
    .from(transactionEvents)
    .where(and(eq(transactionEvents.transactionId, transactionId), gt(transactionEvents.sequence, afterSequence)))
    .orderBy(asc(transactionEvents.sequence))
    .limit(limit);
}

/** A transaction's events after `afterSequence` created at or after `since`, oldest first, at most `limit` (a scope's gap fill). */
export async function transactionEventsSince(db: Queryable, transactionId: string, afterSequence: number, since: Date, limit: number): Promise<StoredEvent[]> {
  return db
    .select({ eventId: transactionEvents.id, sequence: transactionEvents.sequence, payload: transactionEvents.payload })
    .from(transactionEvents)
    .where(and(eq(transactionEvents.transactionId, transactionId), gt(transactionEvents.sequence, afterSequence), gte(transactionEvents.createdAt, since)))
    .orderBy(asc(transactionEvents.sequence))
    .limit(limit);
}

/** Payloads of notified events, by event id: one query for a batch of notifications. */
export async function eventPayloads(db: Queryable, eventIds: string[]): Promise<Map<string, string>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .select({ id: transactionEvents.id, payload: transactionEvents.payload })
    .from(transactionEvents)
    .where(inArray(transactionEvents.id, eventIds));
  return new Map(rows.map((row) => [row.id, row.payload]));
}

/** The events of a merchant (or branch) or device scope created at or after `since`, oldest first, at most `limit`. */
export async function eventsInScopeSince(db: Queryable, filter: ScopeFilter, since: Date, limit: number): Promise<ScopedEvent[]> {
  const inScope =
    filter.scope === 'device'
      ? eq(transactions.deviceId, filter.deviceId)
      : and(eq(transactionEvents.merchantId, filter.merchantId), filter.branchId === null ? undefined : eq(transactions.branchId, filter.branchId));
  return db
    .select({
      eventId: transactionEvents.id,
      transactionNumber: transactions.transactionNumber,
      sequence: transactionEvents.sequence,
      payload: transactionEvents.payload,
    })
    .from(transactionEvents)
    .innerJoin(transactions, eq(transactions.id, transactionEvents.transactionId))
    .where(and(inScope, gte(transactionEvents.createdAt, since)))
    .orderBy(asc(transactionEvents.createdAt), asc(transactionEvents.sequence))
    .limit(limit);
}
