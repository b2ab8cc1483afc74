import { Status, type RefundReason, type RefundResponse, type TransactionStatusCode } from '@svc/protocol';
import type { Tx } from '../../db/client';
import { ApiError, NotFoundError } from '../../errors';
import type { Principal } from '../../auth/principal';
import { answerOf, type MutationContext, type ProcessorHandoff } from '../../http/idempotency';
import { processorError } from '../../processor/processor-errors';
import { answerFromProcessor, askedBy, originalRequestId, queueProcessorRequestWith, type RecordOutcome } from '../processor-requests';
import type { ServiceDeps } from '../../service-deps';
import { randomAlphanumeric } from '../merchants';
import { isRefundable, recordChange, refundableCentsOf, settledCentsOf, toRefund, type TransactionRow } from '../transactions';
import * as q from './refunds.queries';

export interface RefundInput {
  /** Omitted: everything still refundable. */
  amount?: number;
  reason: RefundReason;
  description?: string;
}

/**
 * `POST /transactions/:transactionNumber/refund`: gives settled money back. The transaction is locked, the amount
 * (what is asked, or everything still refundable) reserved by a guarded write that commits with its processor request
 * and the pending refund (an update: event, callback, next sequence); the processor is called after that commit,
 * outside any lock, with the request's key, and `recordRefundOutcome` records the answer once. Unanswered, the refund
 * stays pending and the worker asks again with the same key: a refund is never reversed.
 */
export async function refundTransaction(
  tx: Tx,
  deps: ServiceDeps,
  principal: Principal,
  transactionNumber: string,
  input: RefundInput,
  context: MutationContext,
): Promise<ProcessorHandoff> {
  const now = deps.clock.now();
  const row = await q.lockTransactionForPrincipal(tx, principal, transactionNumber);
  if (!row) throw new NotFoundError('transaction');
  if (!isRefundable(row)) throw notRefundable(row);
  const left = refundableCentsOf(row);
  const amountCents = input.amount ?? left;
  if (amountCents <= 0 || amountCents > left) throw exceedsRefundable(row, amountCents);
  const request = await queueProcessorRequestWith(
    tx,
    q.reserveRefund(row.id, amountCents, now),
    { operation: 'refund', amountCents, ...askedBy(context) },
    now,
  );
  // Locked and checked above: only a payment recorded before refunds existed, without the method it was paid with, gets here.
  if (!request) {
    throw new ApiError('nothing_to_refund', 'No payment method was recorded for this payment, so the service cannot refund it; refund it with your acquirer.');
  }
  await q.insertRefund(tx, {
    refundId: `rf_${randomAlphanumeric(24)}`,
    transactionId: row.id,
    merchantId: row.merchantId,
    amountCents,
    currency: row.currency,
    status: 'pending',
    reason: input.reason,
    description: input.description ?? null,
    failureCode: null,
    processorRequestId: request.id,
    createdAt: now,
    updatedAt: now,
  });
  await recordChange(tx, row.id, now, deps.env.PUBLIC_BASE_URL);
  return answerFromProcessor(deps, request, recordRefundOutcome(deps));
}

/**
 * A refund's outcome: approved, its reservation becomes refunded money (status 13, or 14 once all is refunded);
 * declined or failed, the reservation is freed, the refund kept as failed with the processor's code and the status
 * unchanged. Either way the refund's outcome is an update (event, callback, next sequence).
 */
export function recordRefundOutcome(deps: Pick<ServiceDeps, 'env'>): RecordOutcome {
  return async (tx, request, answer, { now, done }) => {
    if (answer.outcome === 'released') throw new Error(`refund ${request.id} was answered as a release`);
    const requestId = originalRequestId(request);
    const approved = answer.outcome === 'approved';
    const outcome = approved
      ? ({ status: 'succeeded', failureCode: null } as const)
      : ({ status: 'failed', failureCode: answer.outcome === 'declined' ? answer.code : 'processor_failure' } as const);
    const refund = await q.finishRefund(tx, request.id, outcome, now);
    if (!refund) throw new Error(`refund ${request.id} is no longer pending`);
    const view = approved
      ? await q.settleRefund(tx, request.transactionId, request.amountCents, now)
      : await q.dropRefund(tx, request.transactionId, request.amountCents, now);
    if (!view) throw new Error(`refund ${request.id} has no reservation to ${approved ? 'settle' : 'free'}`);
    const recorded = await recordChange(tx, view, now, deps.env.PUBLIC_BASE_URL, 'transaction.updated', undefined, {
      pending: done,
      answer: ({ transaction }) =>
        answer.outcome === 'approved'
          ? answerOf({ body: { refund: toRefund(refund), transaction } satisfies RefundResponse }, requestId)
          : answerOf(processorError(answer), requestId),
    });
    return recorded.answer;
  };
}

/** Why nothing on this transaction can be refunded, and what to do instead. */
function notRefundable(row: TransactionRow): ApiError {
  const status = row.status as TransactionStatusCode;
  if (row.methodType === 'authorize' && row.authStatus === 'active') {
    const held = row.authorizedCents - row.capturedCents - row.releasedCents - row.capturePendingCents;
    const next =
      row.capturedCents > 0
        ? 'void it or closeAuth it first (its captures can be refunded once the hold has ended)'
        : 'void it to release the hold: nothing was captured, so there is nothing to refund';
    return new ApiError(
      'authorization_active',
      `This authorization still holds ${held} cents (status ${status}); ${next}. A hold is released, never refunded.`,
    );
  }
  if (status === Status.Refunded) return exceedsRefundable(row, null);
  return new ApiError('nothing_to_refund', `Nothing was settled on this transaction (status ${status}): ${insteadOfRefund(row)}`);
}

function insteadOfRefund(row: TransactionRow): string {
  if (row.methodType === 'tokenize') return 'a saved card is not charged by its tokenization; refund the sales charged on its token instead.';
  if (row.methodType === 'authorize' && row.capturePendingCents > 0) return 'a capture is still at the processor; retry once it is recorded.';
  switch (row.status) {
    case Status.Pending:
      return 'it is waiting for the consumer; cancel it with POST /transactions/{transactionNumber}/cancel instead.';
    case Status.AwaitingCommit:
      return 'the payment awaits your commit; leave it uncommitted and the hold is released when its commit window ends.';
    case Status.Voided:
    case Status.Expired:
      return 'its hold was released without a capture, so nothing was charged.';
    default:
      return 'nothing was charged (it was declined, cancelled, timed out, expired or failed).';
  }
}

/** More than is refundable was asked for (null: everything, and nothing is left). The detail names what is refundable. */
function exceedsRefundable(row: TransactionRow, asked: number | null): ApiError {
  const left = refundableCentsOf(row);
  const inFlight = row.refundsInFlightCents > 0 ? `, ${row.refundsInFlightCents} being refunded` : '';
  const books = `settled ${settledCentsOf(row)}, refunded ${row.refundedCents}${inFlight}`;
  const what = asked === null || asked === left ? 'nothing is left to refund' : `${asked} cents were asked for`;
  return new ApiError('amount_exceeds_refundable', `Only ${left} cents are refundable on this transaction (${books}); ${what}.`);
}
