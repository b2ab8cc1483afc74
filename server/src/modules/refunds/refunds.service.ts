import { Status, type Currency, type RefundReason, type RefundResponse, type TransactionStatusCode } from '@svc/protocol';
import type { Tx } from '../../db/client';
import { ApiError, NotFoundError } from '../../errors';
import type { Principal } from '../../auth/principal';
import type { AnswerAfterCommit, MutationContext } from '../../mutations/mutation';
import type { Success } from '../../mutations/stored-answer';
import { processorError, requireCapability } from '../../processor/processor-errors';
import { processorOf } from '../../processor/processor-registry';
import { metrics } from '../../metrics';
import { askProcessor, type HeldMethodOperation } from '../processor-requests';
import type { ServiceDeps } from '../../service-deps';
import {
  isRefundable,
  loadTransactionView,
  recordChange,
  refundableCentsOf,
  settledCentsOf,
  toRefund,
  toTransactionObject,
  type TransactionRow,
} from '../transactions';
import * as q from './refunds.queries';
import { newRefundId } from '../../ids';

export interface RefundInput {
  /** Omitted: everything still refundable. */
  amount?: number;
  reason: RefundReason;
  description?: string;
}

/**
 * `POST /transactions/:transactionNumber/refund`: gives settled money back. The amount asked is reserved by a guarded
 * write that finds the transaction by its number in the caller's scope and commits with its processor request and
 * the pending refund (an update: event, callback, next sequence); the processor is called after that commit, outside
 * any lock, with the request's key, and `refundOperation` records the answer once. Unanswered, the refund stays
 * pending and the worker asks again with the same key: a refund is never reversed.
 *
 * Only a refusal, or a refund of everything (whose amount is what the row has left), reads the row first, locked until
 * the refund's transaction ends: it says why nothing can be refunded, or what "everything" is; under that lock the
 * reservation then refuses only for want of a method to give the money back to.
 */
export async function refundTransaction(
  tx: Tx,
  deps: ServiceDeps,
  principal: Principal,
  transactionNumber: string,
  input: RefundInput,
  context: MutationContext,
): Promise<AnswerAfterCommit> {
  requireCapability(await processorOf(deps, principal.merchantId, tx), 'refunds');
  const now = deps.clock.now();
  // The amount is handed to the reservation alone: the request, and then the refund, take it from the row it wrote.
  const reserve = (amountCents: number) =>
    askProcessor(tx, deps, context, refundOperation, {}, q.reserveRefund(principal, transactionNumber, amountCents, now));
  let asking = input.amount === undefined ? null : await reserve(input.amount);
  if (!asking) {
    const row = await q.lockTransactionForPrincipal(tx, principal, transactionNumber);
    if (!row) throw new NotFoundError('transaction');
    if (!isRefundable(row)) throw notRefundable(row);
    const left = refundableCentsOf(row);
    const amountCents = input.amount ?? left;
    if (amountCents <= 0 || amountCents > left) throw exceedsRefundable(row, amountCents);
    asking = await reserve(amountCents);
  }
  // Locked and checked above: only a payment recorded before refunds existed, without the method it was paid with, gets here.
  if (!asking) {
    throw new ApiError('nothing_to_refund', 'No payment method was recorded for this payment, so the service cannot refund it; refund it with your acquirer.');
  }
  const { request } = asking;
  if (request.transactionId === null) throw new Error(`refund request ${request.id} names no transaction`);
  const refund = q.newRefundRow({
    refundId: newRefundId(),
    transactionId: request.transactionId,
    merchantId: request.merchantId,
    amountCents: request.amountCents,
    currency: request.currency,
    status: 'pending',
    reason: input.reason,
    description: input.description ?? null,
    failureCode: null,
    processorReference: null,
    processorRequestId: request.id,
    createdAt: now,
    updatedAt: now,
  });
  // The view as the reservation left it, with the refund its event's statement inserts.
  const view = q.withRefund(await loadTransactionView(tx, request.transactionId), refund);
  await recordChange(tx, view, { at: now, baseUrl: deps.env.PUBLIC_BASE_URL, riders: [q.refundRider(refund)], refund: toRefund(refund) });
  return asking.answer;
}

/**
 * A refund, a call on the method the money goes back to (held: the processor answers its key again as it answered
 * it first, so it is asked again until answered, never reversed). Its outcome: approved, its reservation becomes
 * refunded money (status 13, or 14 once all is refunded); declined or failed, the reservation is freed, the refund
 * kept as failed with the processor's code and the status unchanged. Either way the refund's outcome is an update
 * (event, callback, next sequence), whose event statement also writes the refund's row (only while it is pending) and
 * moves the request to done with the answer (only while it is not done): a second recorder is refused and rolls back.
 */
export const refundOperation: HeldMethodOperation & { kind: 'refund' } = {
  kind: 'refund',
  call: (processor, request) => processor.refund(request.processorReference, request.amountCents, request.requestKey, request.currency as Currency),
  record: async (tx, request, answer, { now, env, done }) => {
    if (answer.outcome === 'released') throw new Error(`refund ${request.id} was answered as a release`);
    const approved = answer.outcome === 'approved';
    const result = approved
      ? ({ status: 'succeeded', failureCode: null, processorReference: answer.reference ?? null } as const)
      : ({ status: 'failed', failureCode: answer.outcome === 'declined' ? answer.code : 'processor_failure', processorReference: null } as const);
    const view = approved
      ? await q.settleRefund(tx, request.transactionId, request.amountCents, now)
      : await q.dropRefund(tx, request.transactionId, request.amountCents, now);
    if (!view) throw new Error(`refund ${request.id} has no reservation to ${approved ? 'settle' : 'free'}`);
    // Written by the event's statement only while the refund is pending (and the request not done): a recorder that
    // comes second is refused there, and its transaction, this settlement included, rolls back.
    const pending = view.refunds.find((r) => r.processorRequestId === request.id);
    if (!pending) throw new Error(`refund ${request.id} is not on its transaction`);
    const refund: q.FinishedRefundRow = { ...pending, ...result, updatedAt: now };
    const recorded = await recordChange(tx, q.withFinishedRefund(view, refund), {
      riders: [q.refundOutcomeRider(refund)],
      refund: toRefund(refund),
      at: now,
      baseUrl: env.PUBLIC_BASE_URL,
      finishing: {
        request: done,
        outcome: ({ transaction }) =>
          answer.outcome === 'approved'
            ? ({ body: { refund: toRefund(refund), transaction } satisfies RefundResponse } satisfies Success)
            : processorError(answer),
      },
    });
    // Counted once the outcome is written (a refund recorded elsewhere throws above and is counted there).
    metrics.refunds.inc({ outcome: result.status });
    return recorded.outcome;
  },
  // Taken by the processor, its outcome on its way (Adyen's REFUND webhook): the refund stays pending, its amount reserved.
  pending: async (tx, request, { env }) => {
    const view = await loadTransactionView(tx, request.transactionId);
    const refund = view.refunds.find((r) => r.processorRequestId === request.id);
    if (!refund) throw new Error(`refund ${request.id} is not on its transaction`);
    return { status: 202, body: { refund: toRefund(refund), transaction: toTransactionObject(view, env.PUBLIC_BASE_URL) } satisfies RefundResponse };
  },
};

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
