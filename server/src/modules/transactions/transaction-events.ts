import type { Transaction } from '@svc/protocol';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/client';
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
}

/**
 * The one way a state change is recorded: inside the caller's database transaction, after the guarded write
 * that took the new sequence, append the event carrying the transaction object as it now is, queue its callback
 * delivery (updates of transactions with a callbackURL; creation is the merchant's own call and its response),
 * and notify every instance. Whatever consumes events hangs off this function, so no change can skip it.
 * `change` is the transaction's view as the change left it, best read by the guarded write itself
 * (`writeReturningView`), or its id, and the view is read here (one statement more). `also` is a payment or token
 * the change made that `change` already shows (`withPayment`, `withToken`): it is inserted in the event's statement.
 */
export async function recordChange(
  tx: Queryable,
  change: TransactionView | string,
  at: Date,
  baseUrl: string,
  type: EventType = 'transaction.updated',
  also?: InsertedWithEvent,
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
  await appendEvent(
    tx,
    { eventId, row: view.row, type, payload: JSON.stringify(transaction), at, callback, channel: EVENTS_CHANNEL, notice: JSON.stringify(notice) },
    also,
  );
  return { eventId, transaction, view };
}
