import { Status } from '@svc/protocol';
import type { CommitResponse, Currency } from '@svc/protocol';
import type { Tx } from '../../db/client';
import { ApiError, NotFoundError, RefusalAfterChange, ValidationError } from '../../errors';
import type { Principal } from '../../auth/principal';
import { processorError } from '../../processor/processor-errors';
import { insertPayment, insertPaymentToken } from '../payments';
import type { LifecycleDeps } from '../lifecycle';
import { newConfirmationNumber, newPaymentId, newToken } from '../transactions';
import { resolveInitAmounts } from '../transactions';
import { recordChange } from '../transactions';
import { findTransactionRowForPrincipal, type TransactionRow } from '../transactions';
import { assertCallbackUrlAllowed } from '../transactions';
import { applyCommit, expireCommitWindow, findByCommitId, type CommitEffect } from './commits.queries';

export interface CommitInput {
  methodType?: string;
  amount: number;
  currency: Currency;
  callbackURL?: string;
  products?: Parameters<typeof resolveInitAmounts>[0]['products'];
  posData?: Record<string, unknown>;
}

/** `POST /transactions/:transactionNumber/commit`: the merchant backend confirms a widget payment. */
export async function commitByMerchant(tx: Tx, deps: LifecycleDeps, principal: Principal, transactionNumber: string, input: CommitInput): Promise<CommitResponse> {
  const row = await findTransactionRowForPrincipal(tx, principal, transactionNumber);
  if (!row) throw new NotFoundError('transaction');
  return commit(tx, deps, row, input);
}

/** `GET /transactions/commitPayment/:commitId`: the commitLink commits what the consumer approved. */
export async function commitByLink(tx: Tx, deps: LifecycleDeps, commitId: string): Promise<CommitResponse> {
  const row = await findByCommitId(tx, commitId);
  if (!row) throw new NotFoundError('commit');
  return commit(tx, deps, row, { amount: row.approvedCents ?? 0, currency: row.currency as Currency });
}

/**
 * The commit rules of CONTRACT §7 and §12: only AwaitingCommit, only inside the window (after it, the
 * transaction is Expired and the hold released, whether or not the sweep got there first), never more than
 * the consumer approved, in the transaction's currency.
 */
async function commit(tx: Tx, deps: LifecycleDeps, row: TransactionRow, input: CommitInput): Promise<CommitResponse> {
  const now = deps.clock.now();
  const windowOver = row.commitDeadline !== null && row.commitDeadline <= now;
  if (row.status === Status.Expired || (row.status === Status.AwaitingCommit && windowOver)) {
    if (row.status === Status.AwaitingCommit && (await expireCommitWindow(tx, row.id, now))) {
      await releaseApproval(deps, row);
      await recordChange(tx, row.id, now, deps.env.PUBLIC_BASE_URL);
    }
    throw new RefusalAfterChange(new ApiError('commit_window_expired', `The commit window of ${row.commitDeadline ? Math.round((row.commitDeadline.getTime() - row.createdAt.getTime()) / 1000) : 0} s is over; the payment has expired and its hold was released.`));
  }
  if (row.status !== Status.AwaitingCommit || !row.processorReference) {
    throw new ApiError('not_awaiting_commit', `Only a widget payment awaiting its commit (status ${Status.AwaitingCommit}) can be committed; this transaction has status ${row.status}.`);
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
  const amounts = input.products ? resolveInitAmounts({ amount: input.amount, isCent: true, currency: input.currency, products: input.products }, 'authorize') : null;

  const effect: CommitEffect =
    row.methodType === 'manual_capture'
      ? { kind: 'captured', amountCents: input.amount }
      : row.methodType === 'authorize'
        ? { kind: 'authorized', amountCents: input.amount, holdExpiresAt: new Date(now.getTime() + deps.env.AUTHORIZATION_HOLD_S * 1000) }
        : { kind: 'tokenized' };
  // The guarded write first: of two commits racing for one payment, only the one that moved it from AwaitingCommit goes on to
  // the processor. A processor refusal then throws, and the whole change rolls back.
  const committed = await applyCommit(
    tx,
    row.id,
    effect,
    {
      ...(input.callbackURL !== undefined ? { callbackUrl: input.callbackURL } : {}),
      ...(amounts ? { products: amounts.products, productSumMismatch: amounts.productSumMismatch } : {}),
      ...(input.posData !== undefined ? { posData: input.posData } : {}),
    },
    now,
  );
  if (!committed) throw new ApiError('not_awaiting_commit', 'This payment was committed or expired a moment ago.');
  if (effect.kind === 'captured') {
    const captured = await deps.processor.capture(row.processorReference, input.amount, input.currency);
    if (captured.outcome !== 'approved') throw processorError(captured);
    if (input.amount < approved) await deps.processor.release(row.processorReference, approved - input.amount);
    await insertPayment(tx, { paymentId: newPaymentId(), transactionId: row.id, merchantId: row.merchantId, kind: 'capture', amountCents: input.amount, status: 'succeeded', confirmationNumber: newConfirmationNumber(), createdAt: now });
  } else {
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
  }
  const { transaction } = await recordChange(tx, row.id, now, deps.env.PUBLIC_BASE_URL);
  const body: CommitResponse = {
    success: true,
    transactionNumber: transaction.TransactionNumber,
    transactionStatus: transaction.status,
    paymentDetails: transaction.paymentDetails,
    confirmation: transaction.confirmation,
    transaction,
  };
  return body;
}

async function releaseApproval(deps: LifecycleDeps, row: TransactionRow): Promise<void> {
  if (row.processorReference && (row.approvedCents ?? 0) > 0) await deps.processor.release(row.processorReference, row.approvedCents!);
}
