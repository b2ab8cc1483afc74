import type { Transaction } from '@svc/protocol';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/client';
import type { PendingDone, RecordedAnswer } from '../processor-requests';
import { toTransactionObject } from './transaction-object';
import { appendEvent, loadTransactionView, type InsertedWithEvent, type TransactionView } from './transactions.queries';

export type EventType = 'transaction.created' | 'transaction.updated';

/** The channel every instance listens on for new events (websocket fan-out, callback dispatcher wake-up). */
export const EVENTS_CHANNEL = 'svc_events';

/** What an events notification carries: enough to route it; the payload is read from transaction_events. */
export interface EventNotice {
  eventId: string;
  transactionId: string;
  transactionNumber: string;
  merchantId: string;
  branchId: string | null;
  deviceId: string | null;
  sequence: number;
  /** Whether a callback delivery was queued with it. */
  callback: boolean;
}

export interface RecordedChange {
  eventId: string;
  transaction: Transaction;
  view: TransactionView;
  /** The answer `done` gave and kept with the processor request; null without `done`. */
  answer: RecordedAnswer | null;
}

/**
 * The processor request whose outcome a change records, moved to done by the change's event statement (one statement
 * fewer than markDone after it), with the answer the change gives, kept with the request for whoever reads its outcome.
 */
export interface DoneWithChange {
  pending: PendingDone;
  answer: (change: Omit<RecordedChange, 'answer'>) => RecordedAnswer;
}

/**
 * The one way a state change is recorded: inside the caller's database transaction, after the guarded write
 * that took the new sequence, append the event carrying the transaction object as it now is, queue its callback
 * delivery (updates of transactions with a callbackURL; creation is the merchant's own call and its response),
 * and notify every instance. Whatever consumes events hangs off this function, so no change can skip it.
 * `change` is the transaction's view as the change left it, best read by the guarded write itself
 * (`writeReturningView`), or its id, and the view is read here (one statement more). `also` is a payment or token
 * the change made that `change` already shows (`withPayment`, `withToken`): it is inserted in the event's statement.
 * `done`: the processor request this change records the outcome of moves to done in that statement too; if another
 * recorder was first, this throws RecordedElsewhere (the caller's transaction rolls back).
 */
export function recordChange(
  tx: Queryable,
  change: TransactionView | string,
  at: Date,
  baseUrl: string,
  type: EventType,
  also: InsertedWithEvent | undefined,
  done: DoneWithChange,
): Promise<RecordedChange & { answer: RecordedAnswer }>;
export function recordChange(
  tx: Queryable,
  change: TransactionView | string,
  at: Date,
  baseUrl: string,
  type?: EventType,
  also?: InsertedWithEvent,
): Promise<RecordedChange>;
export async function recordChange(
  tx: Queryable,
  change: TransactionView | string,
  at: Date,
  baseUrl: string,
  type: EventType = 'transaction.updated',
  also?: InsertedWithEvent,
  done?: DoneWithChange,
): Promise<RecordedChange> {
  const view = typeof change === 'string' ? await loadTransactionView(tx, change) : change;
  const transactionId = view.row.id;
  const transaction = toTransactionObject(view, baseUrl);
  const eventId = randomUUID();
  const callback = type === 'transaction.updated' && view.row.callbackUrl !== null;
  const notice: EventNotice = {
    eventId,
    transactionId,
    transactionNumber: view.row.transactionNumber,
    merchantId: view.row.merchantId,
    branchId: view.row.branchId,
    deviceId: view.row.deviceId,
    sequence: view.row.sequence,
    callback,
  };
  const answer = done ? done.answer({ eventId, transaction, view }) : null;
  const kept = answer && { status: answer.status, body: answer.body };
  await appendEvent(
    tx,
    { eventId, row: view.row, type, payload: JSON.stringify(transaction), at, callback, channel: EVENTS_CHANNEL, notice: JSON.stringify(notice) },
    also,
    done ? { mark: done.pending.mark, answer: kept } : undefined,
  );
  done?.pending.wrote(kept);
  return { eventId, transaction, view, answer };
}
