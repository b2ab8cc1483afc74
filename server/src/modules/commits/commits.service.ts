import { Status } from '@svc/protocol';
import type { CommitResponse, Currency, Transaction } from '@svc/protocol';
import type { Tx } from '../../db/client';
import { ApiError, NotFoundError, RefusalAfterChange, ValidationError } from '../../errors';
import type { Principal } from '../../auth/principal';
import { processorError } from '../../processor/processor-errors';
import { insertPayment, insertPaymentToken } from '../payments';
import type { ServiceDeps } from '../../service-deps';
import { resolveInitAmounts } from '../transactions';
import { loadTransactionView, recordChange, toTransactionObject } from '../transactions';
import { findTransactionRowForPrincipal, type TransactionRow } from '../transactions';
import { assertCallbackUrlAllowed } from '../callbacks';
import type { AnswerAfterCommit, MutationContext } from '../../mutations/mutation';
import type { Success } from '../../mutations/stored-answer';
import { askProcessor, finishReleases, queueRelease, type HeldMethodOperation } from '../processor-requests';
import { applyCommit, endCommitCapture, expireCommitWindow, findByCommitId, startCommitCapture, type CommitEffect } from './commits.queries';
import { newConfirmationNumber, newPaymentId, newToken } from '../../ids';

export interface CommitInput {
  methodType?: string;
  amount: number;
  currency: Currency;
  callbackURL?: string;
  products?: Parameters<typeof resolveInitAmounts>[0]['products'];
  posData?: Record<string, unknown>;
}

/** `POST /transactions/:transactionNumber/commit`: the merchant backend confirms a widget payment. */
export async function commitByMerchant(
  tx: Tx,
  deps: ServiceDeps,
  principal: Principal,
  transactionNumber: string,
  input: CommitInput,
  context: MutationContext,
): Promise<Success | AnswerAfterCommit> {
  const row = await findTransactionRowForPrincipal(tx, principal, transactionNumber);
  if (!row) throw new NotFoundError('transaction');
  return commit(tx, deps, row, input, context);
}

/** `GET /transactions/commitPayment/:commitId`: the commitLink commits what the consumer approved. */
export async function commitByLink(tx: Tx, deps: ServiceDeps, commitId: string, context: MutationContext): Promise<Success | AnswerAfterCommit> {
  const row = await findByCommitId(tx, commitId);
  if (!row) throw new NotFoundError('commit');
  return commit(tx, deps, row, { amount: row.approvedCents ?? 0, currency: row.currency as Currency }, context);
}

const BEING_COMMITTED =
  'This payment is being committed: its capture is at the processor. The commit that asked for it gets the outcome (retry it with its Idempotency-Key).';

/**
 * The commit rules (docs/integrating.md#lifecycle-rules): only AwaitingCommit, only inside the window (after it, the
 * transaction is Expired and the hold released, whether or not the sweep got there first), never more than
 * the consumer approved, in the transaction's currency. A manual_capture commit's capture is asked of the processor
 * after its intent commits (`startCommitCapture` and a processor request), and `commitCaptureOperation` records the outcome.
 */
async function commit(tx: Tx, deps: ServiceDeps, row: TransactionRow, input: CommitInput, context: MutationContext): Promise<Success | AnswerAfterCommit> {
  const now = deps.clock.now();
  if (row.commitInFlightSince !== null) throw new ApiError('not_awaiting_commit', BEING_COMMITTED);
  const windowOver = row.commitDeadline !== null && row.commitDeadline <= now;
  if (row.status === Status.Expired || (row.status === Status.AwaitingCommit && windowOver)) {
    if (row.status === Status.AwaitingCommit) {
      const expired = await expireCommitWindow(tx, row.id, now);
      if (!expired) throw new ApiError('not_awaiting_commit', BEING_COMMITTED);
      await releaseApproval(tx, deps, row, now, context);
      await recordChange(tx, row.id, { at: now, baseUrl: deps.env.PUBLIC_BASE_URL });
    }
    throw new RefusalAfterChange(
      new ApiError(
        'commit_window_expired',
        `The commit window of ${row.commitDeadline ? Math.round((row.commitDeadline.getTime() - row.createdAt.getTime()) / 1000) : 0} s is over; the payment has expired and its hold was released.`,
      ),
    );
  }
  if (row.status !== Status.AwaitingCommit || !row.processorReference) {
    throw new ApiError(
      'not_awaiting_commit',
      `Only a widget payment awaiting its commit (status ${Status.AwaitingCommit}) can be committed; this transaction has status ${row.status}.`,
    );
  }
  if (input.methodType !== undefined && input.methodType !== row.methodType) {
    throw new ValidationError([{ path: 'methodType', message: `this payment is ${row.methodType}` }]);
  }
  if (input.currency !== row.currency) throw new ApiError('currency_mismatch', `The consumer approved ${row.currency}; commit in ${row.currency}.`);
  const approved = row.approvedCents ?? 0;
  if (row.methodType !== 'tokenize' && input.amount > approved) {
    throw new ApiError('amount_exceeds_approved', `The consumer approved ${approved} cents; commit at most that (${input.amount} asked).`);
  }
  if (input.callbackURL) assertCallbackUrlAllowed(input.callbackURL, deps.env);
  const amounts = input.products
    ? resolveInitAmounts({ amount: input.amount, isCent: true, currency: input.currency, products: input.products }, 'authorize')
    : null;
  const extras: CommitExtras = {
    ...(input.callbackURL !== undefined ? { callbackUrl: input.callbackURL } : {}),
    ...(amounts ? { products: amounts.products, productSumMismatch: amounts.productSumMismatch } : {}),
    ...(input.posData !== undefined ? { posData: input.posData } : {}),
  };

  if (row.methodType === 'manual_capture') {
    // The guarded write first: of two commits racing for one payment, only the one that moved it in flight asks the processor.
    const started = await startCommitCapture(tx, row.id, now);
    if (!started) throw new ApiError('not_awaiting_commit', 'This payment was committed or expired a moment ago.');
    const asked = await askProcessor(tx, deps, context, commitCaptureOperation, {
      transactionId: row.id,
      merchantId: row.merchantId,
      processorReference: row.processorReference,
      amountCents: input.amount,
      currency: row.currency,
      details: { approvedCents: approved, extras } satisfies CommitCaptureDetails,
    });
    return asked.answer;
  }

  const effect: CommitEffect =
    row.methodType === 'authorize'
      ? { kind: 'authorized', amountCents: input.amount, holdExpiresAt: new Date(now.getTime() + deps.env.AUTHORIZATION_HOLD_S * 1000) }
      : { kind: 'tokenized' };
  const committed = await applyCommit(tx, row.id, effect, extras, now);
  if (!committed) throw new ApiError('not_awaiting_commit', 'This payment was committed or expired a moment ago.');
  await insertPaymentToken(tx, {
    token: newToken(effect.kind === 'authorized' ? 'authorization' : 'token'),
    type: effect.kind === 'authorized' ? 'authorization' : 'token',
    merchantId: row.merchantId,
    branchId: row.branchId,
    transactionId: row.id,
    processor: row.processor ?? 'alpha',
    processorReference: row.processorReference,
    paymentMethod: row.paymentType ?? 'card',
    lastFourDigits: (row.confirmation as { lastFourDigits?: string | null } | null)?.lastFourDigits ?? null,
    createdAt: now,
  });
  const { transaction } = await recordChange(tx, row.id, { at: now, baseUrl: deps.env.PUBLIC_BASE_URL });
  return { body: commitResponse(transaction) };
}

type CommitExtras = Parameters<typeof applyCommit>[3];

/** What a commit's capture request keeps for its recording: what the consumer approved, and what the commit adds. */
interface CommitCaptureDetails {
  approvedCents: number;
  extras: CommitExtras;
}

/**
 * A manual_capture commit's capture, asked once the commit is marked in flight (`startCommitCapture`). Approved, the
 * payment is committed (Approved, with its capture row), what the consumer approved beyond the committed amount is
 * released, and the event and callback follow; refused, the payment awaits its commit again and the answer is the
 * refusal.
 */
export const commitCaptureOperation: HeldMethodOperation & { kind: 'commit_capture' } = {
  kind: 'commit_capture',
  call: (processor, request) => processor.capture(request.processorReference, request.amountCents, request.currency as Currency, request.requestKey),
  record: async (tx, request, answer, { now, env, releases }) => {
    if (answer.outcome === 'released') throw new Error(`commit capture ${request.id} was answered as a release`);
    if (answer.outcome !== 'approved') {
      await endCommitCapture(tx, request.transactionId);
      return processorError(answer);
    }
    const { approvedCents, extras } = request.details as unknown as CommitCaptureDetails;
    const committed = await applyCommit(tx, request.transactionId, { kind: 'captured', amountCents: request.amountCents }, extras, now, 'in_flight');
    if (!committed) throw new Error(`commit capture ${request.id}: the payment is no longer in flight`);
    await insertPayment(tx, {
      paymentId: newPaymentId(),
      transactionId: committed.id,
      merchantId: committed.merchantId,
      kind: 'capture',
      amountCents: request.amountCents,
      status: 'succeeded',
      confirmationNumber: newConfirmationNumber(),
      createdAt: now,
    });
    if (request.amountCents < approvedCents) {
      const hold = {
        transactionId: committed.id,
        merchantId: committed.merchantId,
        processorReference: request.processorReference,
        currency: committed.currency,
      };
      releases.push(await queueRelease(tx, hold, approvedCents - request.amountCents, now));
    }
    const { transaction } = await recordChange(tx, committed.id, { at: now, baseUrl: env.PUBLIC_BASE_URL });
    return { body: commitResponse(transaction) };
  },
  // Taken by the processor, its outcome on its way (Adyen's CAPTURE webhook): still being committed, 202.
  pending: async (tx, request, { env }) => ({
    status: 202,
    body: commitResponse(toTransactionObject(await loadTransactionView(tx, request.transactionId), env.PUBLIC_BASE_URL)),
  }),
};

function commitResponse(transaction: Transaction): CommitResponse {
  return {
    success: true,
    transactionNumber: transaction.TransactionNumber,
    status: transaction.status,
    transactionStatus: transaction.status,
    paymentDetails: transaction.paymentDetails,
    confirmation: transaction.confirmation,
    transaction,
  };
}

/** A missed commit window releases what the consumer approved, at the processor once the expiry commits. */
async function releaseApproval(tx: Tx, deps: ServiceDeps, row: TransactionRow, now: Date, context: MutationContext): Promise<void> {
  if (!row.processorReference || (row.approvedCents ?? 0) <= 0) return;
  const hold = { transactionId: row.id, merchantId: row.merchantId, processorReference: row.processorReference, currency: row.currency };
  const release = await queueRelease(tx, hold, row.approvedCents!, now);
  context.afterCommit(() => finishReleases(deps, [release]));
}
