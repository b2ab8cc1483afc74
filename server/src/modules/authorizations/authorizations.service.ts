import { Status } from '@svc/protocol';
import type { Currency, Payment, Transaction } from '@svc/protocol';
import type { Tx } from '../../db/client';
import { ApiError, NotFoundError, ValidationError } from '../../errors';
import type { Principal } from '../../auth/principal';
import { processorError } from '../../processor/processor-errors';
import type { LifecycleDeps } from '../lifecycle';
import { newConfirmationNumber, newLinkId, newPaymentId, newTransactionNumber } from '../transactions';
import { recordChange } from '../transactions';
import { confirmationFor, insertPayment, newPaymentRow, toPayment } from '../payments';
import { findTransactionRowForPrincipal, insertTransaction, withPayment, type TransactionRow } from '../transactions';
import * as q from './authorizations.queries';

export interface PayResult {
  payment: Payment;
  transaction: Transaction;
}

/**
 * `POST /transactions/pay`. An authorization token captures against its hold (guarded, so concurrent captures
 * never exceed it); a tokenization token charges a new sale transaction.
 */
export async function pay(
  tx: Tx,
  deps: LifecycleDeps,
  principal: Principal,
  input: { token: string; amount: number; currency?: Currency },
): Promise<PayResult> {
  const found = await q.findTokenForPrincipal(tx, principal, input.token);
  if (!found) throw new NotFoundError('token');
  if (found.token.type === 'token') return chargeTokenizedMethod(tx, deps, principal, found.token, input);

  const now = deps.clock.now();
  const holder = found.transaction;
  if (input.currency !== undefined && input.currency !== holder.currency) {
    throw new ApiError('currency_mismatch', `The authorization is in ${holder.currency}; capture in ${holder.currency} (or leave currency out).`);
  }
  const captured = await q.captureAgainstHold(tx, holder.id, input.amount, now);
  if (!captured) throw await captureRefusal(tx, holder.id, input.amount, now);

  const result = await deps.processor.capture(found.token.processorReference, input.amount, holder.currency as Currency);
  if (result.outcome !== 'approved') throw processorError(result);
  const payment = newPaymentRow({
    paymentId: newPaymentId(),
    transactionId: holder.id,
    merchantId: holder.merchantId,
    kind: 'capture',
    amountCents: input.amount,
    status: 'succeeded',
    confirmationNumber: newConfirmationNumber(),
    createdAt: now,
  });
  // The payment is inserted with the event, in its statement.
  const { transaction } = await recordChange(tx, withPayment(captured, payment), now, deps.env.PUBLIC_BASE_URL, 'transaction.updated', { payment });
  return { payment: toPayment(payment), transaction };
}

/** `POST /transactions/void`: releases what the hold still holds; captures already made stay. */
export async function voidAuthorization(
  tx: Tx,
  deps: LifecycleDeps,
  principal: Principal,
  target: { token?: string; transactionNumber?: string },
): Promise<Transaction> {
  const now = deps.clock.now();
  const found = await authorizationTarget(tx, principal, target);
  // Locked first, so the amount the processor is told to release is what the hold held when it was voided.
  const row = await q.lockTransaction(tx, found.id);
  const voided = await q.voidHold(tx, row.id, now);
  if (!voided) throw notActive(row, now, 'void');
  await releaseAtProcessor(tx, deps, row);
  return (await recordChange(tx, row.id, now, deps.env.PUBLIC_BASE_URL)).transaction;
}

/** `POST /transactions/authorize`: a new hold with the original authorization's token. */
export async function reauthorize(tx: Tx, deps: LifecycleDeps, principal: Principal, input: { token: string; amount: number }): Promise<Transaction> {
  const now = deps.clock.now();
  const found = await q.findTokenForPrincipal(tx, principal, input.token);
  if (!found) throw new NotFoundError('token');
  if (found.token.type !== 'authorization') {
    throw new ApiError('not_an_authorization', 'This is a tokenized payment method, not an authorization; charge it with /transactions/pay.');
  }
  const row = found.transaction;
  const expiresAt = new Date(now.getTime() + deps.env.AUTHORIZATION_HOLD_S * 1000);
  const renewed = await q.reauthorizeHold(tx, row.id, input.amount, expiresAt, now);
  if (!renewed) {
    throw new ApiError(
      'authorization_not_active',
      `Only an authorization with status ${Status.Authorized}, ${Status.PartiallyCaptured} or ${Status.Expired} can be re-authorized; this one has status ${row.status}.`,
    );
  }
  const result = await deps.processor.reauthorize(found.token.processorReference, input.amount, row.currency as Currency);
  if (result.outcome !== 'approved') throw processorError(result);
  return (await recordChange(tx, row.id, now, deps.env.PUBLIC_BASE_URL)).transaction;
}

/** `POST /transactions/:transactionNumber/closeAuth`: releases the remainder after at least one capture. */
export async function closeAuthorization(tx: Tx, deps: LifecycleDeps, principal: Principal, transactionNumber: string): Promise<Transaction> {
  const now = deps.clock.now();
  const found = await findTransactionRowForPrincipal(tx, principal, transactionNumber);
  if (!found) throw new NotFoundError('transaction');
  // Locked first, so the amount the processor is told to release is what the hold held when it was closed.
  const row = await q.lockTransaction(tx, found.id);
  const closed = await q.closeHold(tx, row.id, now);
  if (!closed) throw await closeAuthRefusal(tx, row.id, now);
  await releaseAtProcessor(tx, deps, row);
  return (await recordChange(tx, row.id, now, deps.env.PUBLIC_BASE_URL)).transaction;
}

async function chargeTokenizedMethod(
  tx: Tx,
  deps: LifecycleDeps,
  principal: Principal,
  token: { processorReference: string; paymentMethod: string; lastFourDigits: string | null; processor: string; branchId: string | null },
  input: { amount: number; currency?: Currency },
): Promise<PayResult> {
  if (input.currency === undefined) {
    throw new ValidationError([{ path: 'currency', message: 'is required when charging a tokenized payment method' }]);
  }
  const result = await deps.processor.chargeToken(token.processorReference, input.amount, input.currency);
  if (result.outcome !== 'approved') throw processorError(result);
  const now = deps.clock.now();
  const confirmationNumber = newConfirmationNumber();
  const sale = await insertTransaction(tx, {
    transactionNumber: newTransactionNumber(),
    merchantId: principal.merchantId,
    branchId: principal.branchId ?? token.branchId,
    methodType: 'sale',
    status: Status.Approved,
    currency: input.currency,
    amountCents: input.amount,
    linkId: newLinkId(),
    paymentType: token.paymentMethod,
    processor: token.processor,
    confirmation: confirmationFor({
      paymentType: token.paymentMethod,
      processor: token.processor,
      lastFourDigits: token.lastFourDigits,
      authNumber: result.authNumber,
      confirmationNumber,
      at: now,
    }),
    sequence: 1,
    createdAt: now,
    updatedAt: now,
  });
  const payment = await insertPayment(tx, {
    paymentId: newPaymentId(),
    transactionId: sale.id,
    merchantId: sale.merchantId,
    kind: 'sale',
    amountCents: input.amount,
    status: 'succeeded',
    confirmationNumber,
    createdAt: now,
  });
  const { transaction } = await recordChange(tx, sale.id, now, deps.env.PUBLIC_BASE_URL, 'transaction.created');
  return { payment: toPayment(payment), transaction };
}

async function authorizationTarget(tx: Tx, principal: Principal, target: { token?: string; transactionNumber?: string }): Promise<TransactionRow> {
  if (target.token !== undefined) {
    const found = await q.findTokenForPrincipal(tx, principal, target.token);
    if (!found) throw new NotFoundError('token');
    if (found.token.type !== 'authorization') throw new ApiError('not_an_authorization', 'This token is a tokenized payment method; there is no hold to void.');
    return found.transaction;
  }
  const row = await findTransactionRowForPrincipal(tx, principal, target.transactionNumber!);
  if (!row) throw new NotFoundError('transaction');
  if (row.methodType !== 'authorize')
    throw new ApiError('not_an_authorization', 'This transaction is not an authorization; there is no hold to void. A pending sale can be cancelled.');
  return row;
}

async function releaseAtProcessor(tx: Tx, deps: LifecycleDeps, row: TransactionRow): Promise<void> {
  const token = await q.findTokenOfTransaction(tx, row.id);
  const left = row.authorizedCents - row.capturedCents - row.releasedCents;
  if (token && left > 0) await deps.processor.release(token.processorReference, left);
}

/** Why a guarded capture did not apply, read after the fact (only to word the refusal). */
async function captureRefusal(tx: Tx, transactionId: string, amount: number, now: Date): Promise<ApiError> {
  const row = await q.readTransaction(tx, transactionId);
  if (row.authStatus !== 'active' || !row.holdExpiresAt || row.holdExpiresAt <= now) return notActive(row, now, 'capture against');
  const left = row.authorizedCents - row.capturedCents - row.releasedCents;
  return new ApiError('amount_exceeds_available', `Only ${left} cents are still available on this authorization; ${amount} were asked for.`);
}

/** closeAuth's refusals, in the order of the spec's preconditions. */
async function closeAuthRefusal(tx: Tx, transactionId: string, now: Date): Promise<ApiError> {
  const row = await q.readTransaction(tx, transactionId);
  if (row.methodType !== 'authorize')
    return new ApiError('not_an_authorization', 'This transaction is not an authorization; only authorizations can be closed.');
  if (row.status === Status.Captured) return new ApiError('nothing_to_release', 'The authorization is fully captured; nothing is left to release.');
  if (row.authStatus !== 'active' || !row.holdExpiresAt || row.holdExpiresAt <= now) return notActive(row, now, 'close');
  if (row.capturedCents === 0) {
    return new ApiError(
      'no_successful_payment',
      'No successful payment exists on this authorization, so it cannot be closed; use /transactions/void to release the hold.',
    );
  }
  if (row.authorizedCents - row.capturedCents - row.releasedCents <= 0)
    return new ApiError('nothing_to_release', 'Nothing is left to release on this authorization.');
  return new ApiError(
    'close_auth_unsupported',
    `The ${row.processor ?? 'unknown'} processor does not support closing an authorization; use /transactions/void instead.`,
  );
}

function notActive(row: TransactionRow, now: Date, verb: string): ApiError {
  if (row.methodType !== 'authorize') return new ApiError('not_an_authorization', `This transaction is not an authorization; there is nothing to ${verb}.`);
  const expired = row.authStatus === 'active' && row.holdExpiresAt !== null && row.holdExpiresAt <= now;
  const why = expired ? 'its hold has expired' : row.authStatus === null ? 'the consumer has not paid yet' : `it is ${row.authStatus}`;
  return new ApiError('authorization_not_active', `Cannot ${verb} this authorization: ${why} (status ${expired ? Status.Expired : row.status}).`);
}
