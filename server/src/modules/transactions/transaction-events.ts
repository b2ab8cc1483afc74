import { statusEventType, type Refund, type Transaction, type WebhookEventType } from '@svc/protocol';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/client';
import type { Rider } from '../../db/rider';
import { recordedEvent } from '../../db/after-commit';
import type { EventNotice } from '../../event-notice';
import type { Outcome } from '../../mutations/stored-answer';
import { appendEvent } from './event-append.queries';
import { toTransactionObject } from './transaction-object';
import { loadTransactionView, type TransactionView } from './transactions.queries';

export type EventType = 'transaction.created' | 'transaction.updated';

export interface RecordedChange {
  eventId: string;
  transaction: Transaction;
  view: TransactionView;
}

/** How a change is recorded: when, the base URL its transaction object's links are made with, and what goes in with its event. */
export interface ChangeRecord {
  at: Date;
  baseUrl: string;
  /** `transaction.updated` unless said. */
  type?: EventType;
  /**
   * The rows the change writes that the view already shows, riding in the event's statement: each declared by the
   * module whose rows it writes (a payment or token inserted, a pending refund inserted, a refund's outcome).
   */
  riders?: readonly Rider[];
  /** The processor request whose outcome the change records: moved to done in the event's statement (`FinishedRequest`). */
  finishing?: FinishedRequest;
  /** The refund the change asked for or answered: the change sends `refund.updated` (and `transaction.refunded` once it succeeded) with it. */
  refund?: Refund;
}

/**
 * The processor request whose outcome a change records, moved to done by a rider of the change's event statement
 * (one statement fewer than the move after it), with the answer the change's outcome keeps for whoever reads it.
 */
export interface FinishedRequest {
  /** The request's move to done (processor-requests' PendingDone): a rider made with the outcome, whose answer it keeps. */
  request: { riderFor(outcome: Outcome): Rider };
  /** The outcome the recording answers, from the change as recorded (its transaction object). */
  outcome: (change: RecordedChange) => Outcome;
}

/**
 * The one way a state change is recorded: inside the caller's database transaction, after the guarded write
 * that took the new sequence, append the event carrying the transaction object as it now is, queue its callback
 * delivery (updates of transactions with a callbackURL; creation is the merchant's own call and its response),
 * and its publication on the update bus, which every instance hears once the caller's transaction has committed. Whatever consumes events hangs off this function, so no change can skip it.
 * `change` is the transaction's view as the change left it, best read by the guarded write itself
 * (`writeReturningView`), or its id, and the view is read here (one statement more). With `finishing`, the processor
 * request the change records the outcome of moves to done in the event's statement too, and the outcome is answered;
 * if another recorder was first, this throws AlreadyRecordedError (the caller's transaction rolls back).
 */
export function recordChange(
  tx: Queryable,
  change: TransactionView | string,
  record: ChangeRecord & { finishing: FinishedRequest },
): Promise<RecordedChange & { outcome: Outcome }>;
export function recordChange(tx: Queryable, change: TransactionView | string, record: ChangeRecord): Promise<RecordedChange>;
export async function recordChange(tx: Queryable, change: TransactionView | string, record: ChangeRecord): Promise<RecordedChange & { outcome?: Outcome }> {
  const { at, baseUrl, type = 'transaction.updated', riders = [], finishing, refund } = record;
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
  const recorded: RecordedChange = { eventId, transaction, view };
  const { eventTypes, statusType } = merchantEventsOf(type, view.row.status, refund);
  const outcome = finishing?.outcome(recorded);
  // The move to done rides first: a recorder that came second is told AlreadyRecordedError before any other refusal.
  const { fanned } = await appendEvent(
    tx,
    {
      eventId,
      row: view.row,
      type,
      payload: JSON.stringify(transaction),
      at,
      callback,
      eventTypes,
      statusEventType: statusType,
      refund: refund ? JSON.stringify(refund) : null,
      notice: JSON.stringify(notice),
    },
    finishing && outcome ? [finishing.request.riderFor(outcome), ...riders] : riders,
  );
  // Deliveries queued for webhook endpoints wake the dispatchers too, once the change commits.
  recordedEvent(tx, fanned && !callback ? { ...notice, callback: true } : notice);
  return outcome ? { ...recorded, outcome } : recorded;
}

/**
 * The merchant's events a change sends (docs: the event types): every update is `transaction.updated`; a refund asked
 * for or answered is `refund.updated`, and one that succeeded `transaction.refunded` too; and the status the change
 * left sends its own event (`transaction.approved`...) when the transaction's event before had another status, which
 * the event statement checks (creation has none before: a sale created approved is `transaction.approved`).
 */
function merchantEventsOf(
  type: EventType,
  status: number,
  refund: Refund | undefined,
): { eventTypes: WebhookEventType[]; statusType: WebhookEventType | null } {
  const eventTypes: WebhookEventType[] = type === 'transaction.updated' ? ['transaction.updated'] : [];
  if (refund) eventTypes.push('refund.updated');
  if (refund?.status === 'succeeded') eventTypes.push('transaction.refunded');
  const statusType = statusEventType(status);
  // A refund's own change says whether money went back; its status alone (13 before and after a second refund) does not.
  return { eventTypes, statusType: refund && statusType === 'transaction.refunded' ? null : statusType };
}
