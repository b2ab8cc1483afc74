import { Status, type Currency, type Payment, type PayResponse, type Transaction } from '@svc/protocol';
import type { Principal } from '../../auth/principal';
import type { Tx } from '../../db/client';
import { ApiError, NotFoundError } from '../../errors';
import { newConfirmationNumber, newPaymentId } from '../../ids';
import type { AnswerAfterCommit, MutationContext } from '../../mutations/mutation';
import { capabilityRefusal, processorError, requireCapability } from '../../processor/processor-errors';
import { processorOf } from '../../processor/processor-registry';
import type { ServiceDeps } from '../../service-deps';
import { newPaymentRow, paymentRider, toPayment } from '../payments';
import { askProcessor, finishReleases, queueRelease, type HeldMethodOperation } from '../processor-requests';
import { findTransactionRowForPrincipal, loadTransactionView, recordChange, toTransactionObject, withPayment, type TransactionRow } from '../transactions';
import {
  closeHold,
  dropCapture,
  findTokenForPrincipal,
  findTokenOfTransaction,
  lockTransaction,
  readTransaction,
  reauthorizationIntent,
  reauthorizeHold,
  reserveCaptureByToken,
  settleCapture,
  voidHold,
} from './authorizations.queries';
import { chargeTokenizedMethod } from './token-charge';

/**
 * `POST /transactions/pay`. An authorization token captures against its hold; a tokenization token charges a new
 * sale transaction. A capture is reserved by a guarded write (so concurrent captures never exceed the hold) that
 * commits with its processor request; the processor is called after that commit, outside any lock, and its outcome
 * recorded by `captureOperation`, which gives the answer.
 */
export async function pay(
  tx: Tx,
  deps: ServiceDeps,
  principal: Principal,
  target: { token?: string; transactionNumber?: string; amount: number; currency?: Currency },
  context: MutationContext,
): Promise<AnswerAfterCommit> {
  const input = { ...target, token: target.token ?? (await tokenOfAuthorization(tx, principal, target.transactionNumber!)) };
  const now = deps.clock.now();
  // A processor that captures an authorization once (no `multipleCaptures`) takes only the first capture.
  const singleCapture = !(await processorOf(deps, principal.merchantId, tx)).capabilities.multipleCaptures;
  // A capture that can be made is one statement: the token's lookup, the reservation and the processor request.
  const reservation = reserveCaptureByToken(principal, input.token, { amountCents: input.amount, currency: input.currency ?? null, singleCapture }, now);
  const capture = await askProcessor(tx, deps, context, captureOperation, {}, reservation);
  if (capture) return capture.answer;

  // Refused: why, in the order a merchant would look for it (or a tokenized method, which is charged instead).
  const found = await findTokenForPrincipal(tx, principal, input.token);
  if (!found) throw new NotFoundError('token');
  if (found.token.type === 'token') return chargeTokenizedMethod(tx, deps, principal, found.token, input, context);
  const holder = found.transaction;
  if (input.currency !== undefined && input.currency !== holder.currency) {
    throw new ApiError('currency_mismatch', `The authorization is in ${holder.currency}; capture in ${holder.currency} (or leave currency out).`);
  }
  throw await captureRefusal(tx, deps, holder.id, input.amount, now);
}

/**
 * A capture against a hold, its amount reserved (`capture_pending_cents`) by the guarded write it was asked with
 * (`reserveCaptureByToken`). Approved, the reservation becomes a capture with its payment row, event and callback;
 * refused, it goes back to the hold (or is released, if the hold ended meanwhile) and the answer is the refusal.
 */
export const captureOperation: HeldMethodOperation & { kind: 'capture' } = {
  kind: 'capture',
  call: (processor, request) => processor.capture(request.processorReference, request.amountCents, request.currency as Currency, request.requestKey),
  record: async (tx, request, answer, { now, env, releases, done, processor }) => {
    if (answer.outcome === 'released') throw new Error(`capture ${request.id} was answered as a release`);
    if (answer.outcome === 'approved') {
      // A processor that captures once gave the rest of the hold back with this capture: the hold ends with it.
      const closesHold = !processor.capabilities.multipleCaptures;
      const settled = await settleCapture(tx, request.transactionId, request.amountCents, now, { closesHold });
      if (!settled) throw new Error(`capture ${request.id} has no reservation to settle`);
      const payment = newPaymentRow({
        // A capture that was pending keeps the id its 202 answer gave.
        paymentId: request.pendingReference ? pendingPaymentId(request) : newPaymentId(),
        transactionId: settled.row.id,
        merchantId: settled.row.merchantId,
        kind: 'capture',
        amountCents: request.amountCents,
        status: 'succeeded',
        confirmationNumber: newConfirmationNumber(),
        createdAt: now,
      });
      // The settled write answered the view; the payment is inserted with the event, in its statement, and the request
      // moves to done there too, with the answer.
      const recorded = await recordChange(tx, withPayment(settled, payment), {
        at: now,
        baseUrl: env.PUBLIC_BASE_URL,
        riders: [paymentRider(payment)],
        finishing: { request: done, outcome: ({ transaction }) => ({ body: { payment: toPayment(payment), transaction } satisfies PayResponse }) },
      });
      return recorded.outcome;
    }
    const dropped = await dropCapture(tx, request.transactionId, request.amountCents, now);
    if (!dropped) throw new Error(`capture ${request.id} has no reservation to drop`);
    if (dropped.released) {
      releases.push(await queueRelease(tx, holdOf(dropped.row, request.processorReference), request.amountCents, now));
      await recordChange(tx, dropped.row.id, { at: now, baseUrl: env.PUBLIC_BASE_URL });
    }
    return processorError(answer);
  },
  // Taken by the processor, its outcome on its way: the amount stays reserved, and the payment is pending.
  pending: async (tx, request, { now, env }) => {
    const transaction = toTransactionObject(await loadTransactionView(tx, request.transactionId), env.PUBLIC_BASE_URL);
    const payment: Payment = {
      paymentId: pendingPaymentId(request),
      amountCents: request.amountCents,
      status: 'pending',
      date: now.toISOString(),
      confirmationNumber: null,
    };
    return { status: 202, body: { payment, transaction } satisfies PayResponse };
  },
};

/** The id a pending capture's payment has in its 202 answer and keeps once captured: from its request's key. */
function pendingPaymentId(request: { requestKey: string }): string {
  return `pay_${request.requestKey.replace(/^prq_/, '').slice(0, 24)}`;
}

/**
 * `POST /transactions/void`: releases what the hold still holds; captures already made stay. Refused while a capture
 * is at the processor (409 capture_in_flight): that capture wins entirely or is refused, and a void retried after it
 * ends the hold, or finds it captured.
 */
export async function voidAuthorization(
  tx: Tx,
  deps: ServiceDeps,
  principal: Principal,
  target: { token?: string; transactionNumber?: string },
  context: MutationContext,
): Promise<Transaction> {
  const now = deps.clock.now();
  const found = await authorizationTarget(tx, principal, target);
  // Locked first, so the amount the processor is told to release is what the hold held when it was voided.
  const row = await lockTransaction(tx, found.id);
  const voided = await voidHold(tx, row.id, now);
  if (!voided) throw holdEndRefusal(row, now, 'void') ?? notActive(row, now, 'void');
  await releaseAtProcessor(tx, deps, row, now, context);
  return (await recordChange(tx, row.id, { at: now, baseUrl: deps.env.PUBLIC_BASE_URL })).transaction;
}

/**
 * `POST /transactions/authorize`: a new hold with the original authorization's token. The request for it commits
 * first, with a guarded intent that refuses (before the processor is asked) an authorization that cannot be
 * re-authorized: voided, closed, captured, or with a capture in flight, including a void or a capture reservation being
 * made, which it waits for. The processor places the hold outside any lock, and `reauthorizeOperation` adds it to the
 * books if the authorization can still take it (else the new hold is released at once).
 */
export async function reauthorize(
  tx: Tx,
  deps: ServiceDeps,
  principal: Principal,
  input: { token: string; amount: number },
  context: MutationContext,
): Promise<AnswerAfterCommit> {
  const found = await findTokenForPrincipal(tx, principal, input.token);
  if (!found) throw new NotFoundError('token');
  if (found.token.type !== 'authorization') {
    throw new ApiError('not_an_authorization', 'This is a tokenized payment method, not an authorization; charge it with /transactions/pay.');
  }
  // A re-authorization releases what the hold still holds: with a capture in flight, a decline of that capture would
  // put its amount back on top of the new hold. So none is asked for until the capture is recorded.
  const held = found.transaction;
  requireCapability(await processorOf(deps, held.merchantId, tx), 'reauthorize');
  const asked = { merchantId: held.merchantId, processorReference: found.token.processorReference, amountCents: input.amount, currency: held.currency };
  const reauthorization = await askProcessor(tx, deps, context, reauthorizeOperation, asked, reauthorizationIntent(held.id));
  if (reauthorization) return reauthorization.answer;
  throw reauthorizationRefusal(await readTransaction(tx, held.id));
}

/**
 * A new hold on an authorization's method, asked with a guarded intent (`reauthorizationIntent`). Approved, the new
 * hold joins the books (guarded) and the one it replaces is given back; refused, the answer is the refusal.
 */
export const reauthorizeOperation: HeldMethodOperation & { kind: 'reauthorize' } = {
  kind: 'reauthorize',
  call: (processor, request) => processor.reauthorize(request.processorReference, request.amountCents, request.currency as Currency, request.requestKey),
  record: async (tx, request, answer, { now, env, releases }) => {
    if (answer.outcome === 'released') throw new Error(`re-authorization ${request.id} was answered as a release`);
    if (answer.outcome !== 'approved') return processorError(answer);
    const expiresAt = new Date(now.getTime() + env.AUTHORIZATION_HOLD_S * 1000);
    // Locked first, so what the replaced hold still held (released in the books by the write) is known exactly.
    const before = await lockTransaction(tx, request.transactionId);
    const renewed = await reauthorizeHold(tx, request.transactionId, request.amountCents, expiresAt, now);
    if (!renewed) {
      // Voided, closed, captured, or a capture started while the processor placed the hold: it is given back, and the
      // merchant told why.
      releases.push(await queueRelease(tx, holdOf(before, request.processorReference), request.amountCents, now));
      return reauthorizationRefusal(before);
    }
    // The hold it replaces is given back at the processor too (an expired one was, by the sweep): so is the earlier of
    // two concurrent re-authorizations, replaced by the later.
    const replaced = before.authorizedCents - before.capturedCents - before.releasedCents - before.capturePendingCents;
    if (replaced > 0) releases.push(await queueRelease(tx, holdOf(before, request.processorReference), replaced, now));
    return { body: (await recordChange(tx, renewed.id, { at: now, baseUrl: env.PUBLIC_BASE_URL })).transaction };
  },
};

const REAUTHORIZABLE: readonly number[] = [Status.Authorized, Status.PartiallyCaptured, Status.Expired];

function isReauthorizable(row: TransactionRow): boolean {
  return REAUTHORIZABLE.includes(row.status) && (row.authStatus === 'active' || row.authStatus === 'expired');
}

/** A move refused while a capture is at the processor: it names the amount and says to retry once the capture is recorded. */
function captureInFlight(row: TransactionRow, verb: string): ApiError {
  return new ApiError(
    'capture_in_flight',
    `A capture of ${row.capturePendingCents} cents is still waiting for the processor; retry to ${verb} once it is recorded (its callback follows).`,
  );
}

/** Why the re-authorization guard refused the row: a capture or a refund still at the processor, or the status. */
function reauthorizationRefusal(row: TransactionRow): ApiError {
  if (isReauthorizable(row) && row.capturePendingCents > 0) return captureInFlight(row, 're-authorize');
  if (isReauthorizable(row) && row.refundsInFlightCents > 0) {
    return new ApiError(
      'authorization_not_active',
      `A refund of ${row.refundsInFlightCents} cents is still waiting for the processor; retry to re-authorize once it is recorded (its callback follows).`,
    );
  }
  return new ApiError(
    'authorization_not_active',
    `Only an authorization with status ${Status.Authorized}, ${Status.PartiallyCaptured} or ${Status.Expired} can be re-authorized; this one has status ${row.status}.`,
  );
}

/** `POST /transactions/:transactionNumber/closeAuth`: releases the remainder after at least one capture. */
export async function closeAuthorization(
  tx: Tx,
  deps: ServiceDeps,
  principal: Principal,
  transactionNumber: string,
  context: MutationContext,
): Promise<Transaction> {
  const now = deps.clock.now();
  const found = await findTransactionRowForPrincipal(tx, principal, transactionNumber);
  if (!found) throw new NotFoundError('transaction');
  requireCapability(await processorOf(deps, found.merchantId, tx), 'closeAuth');
  // Locked first, so the amount the processor is told to release is what the hold held when it was closed.
  const row = await lockTransaction(tx, found.id);
  const closed = await closeHold(tx, row.id, now);
  if (!closed) throw closeAuthRefusal(row, now);
  await releaseAtProcessor(tx, deps, row, now, context);
  return (await recordChange(tx, row.id, { at: now, baseUrl: deps.env.PUBLIC_BASE_URL })).transaction;
}

/**
 * The token of the authorization a capture names by its transaction number (the capture then goes on as by token): 404
 * for a transaction the caller cannot see, 409 for one that is no authorization or holds nothing yet.
 */
async function tokenOfAuthorization(tx: Tx, principal: Principal, transactionNumber: string): Promise<string> {
  const row = await findTransactionRowForPrincipal(tx, principal, transactionNumber);
  if (!row) throw new NotFoundError('transaction');
  if (row.methodType !== 'authorize') {
    throw new ApiError('not_an_authorization', 'This transaction is not an authorization; there is no hold to capture against.');
  }
  const token = await findTokenOfTransaction(tx, row.id);
  if (!token) throw new ApiError('authorization_not_active', 'The consumer has not paid this authorization yet: there is no hold to capture against.');
  return token.token;
}

async function authorizationTarget(tx: Tx, principal: Principal, target: { token?: string; transactionNumber?: string }): Promise<TransactionRow> {
  if (target.token !== undefined) {
    const found = await findTokenForPrincipal(tx, principal, target.token);
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

/** Queues the release of what the hold held when it ended (`row`, read locked before), and calls it once committed. */
async function releaseAtProcessor(tx: Tx, deps: ServiceDeps, row: TransactionRow, now: Date, context: MutationContext): Promise<void> {
  const token = await findTokenOfTransaction(tx, row.id);
  const left = row.authorizedCents - row.capturedCents - row.releasedCents - row.capturePendingCents;
  if (!token || left <= 0) return;
  const release = await queueRelease(tx, holdOf(row, token.processorReference), left, now);
  context.afterCommit(() => finishReleases(deps, [release]));
}

/** The hold of `row` on the method `processorReference`, as a release gives it back. */
function holdOf(row: TransactionRow, processorReference: string) {
  return { transactionId: row.id, merchantId: row.merchantId, processorReference, currency: row.currency };
}

/** Why a guarded capture did not apply, read after the fact (only to word the refusal). */
async function captureRefusal(tx: Tx, deps: ServiceDeps, transactionId: string, amount: number, now: Date): Promise<ApiError> {
  const row = await readTransaction(tx, transactionId);
  if (row.authStatus !== 'active' || !row.holdExpiresAt || row.holdExpiresAt <= now) return notActive(row, now, 'capture against');
  if (row.capturePendingCents > 0 || row.capturedCents > 0) {
    // A processor that captures once: this authorization's one capture is taken, or at the processor.
    const processor = await processorOf(deps, row.merchantId, tx);
    const made = row.capturePendingCents > 0 ? `a capture of ${row.capturePendingCents} cents is at the processor` : 'it was captured';
    if (!processor.capabilities.multipleCaptures) return capabilityRefusal(processor, 'multipleCaptures', ` and this authorization takes one capture: ${made}`);
  }
  const left = row.authorizedCents - row.capturedCents - row.releasedCents - row.capturePendingCents;
  const inFlight = row.capturePendingCents > 0 ? ` (${row.capturePendingCents} more are being captured)` : '';
  return new ApiError('amount_exceeds_available', `Only ${left} cents are still available on this authorization${inFlight}; ${amount} were asked for.`);
}

/** closeAuth's refusals, in the order of the spec's preconditions (`row` as locked before its guarded write). */
function closeAuthRefusal(row: TransactionRow, now: Date): ApiError {
  if (row.methodType !== 'authorize')
    return new ApiError('not_an_authorization', 'This transaction is not an authorization; only authorizations can be closed.');
  if (row.status === Status.Captured) return new ApiError('nothing_to_release', 'The authorization is fully captured; nothing is left to release.');
  const ended = holdEndRefusal(row, now, 'close');
  if (ended) return ended;
  if (row.capturedCents === 0) {
    return new ApiError(
      'no_successful_payment',
      'No successful payment exists on this authorization, so it cannot be closed; use /transactions/void to release the hold.',
    );
  }
  if (row.authorizedCents - row.capturedCents - row.releasedCents - row.capturePendingCents <= 0)
    return new ApiError('nothing_to_release', 'Nothing is left to release on this authorization.');
  return new ApiError(
    'close_auth_unsupported',
    `The ${row.processor ?? 'unknown'} processor does not support closing an authorization; use /transactions/void instead.`,
  );
}

/**
 * Why a void or closeAuth could not end the hold, from the row as locked before its guarded write: not active, or a
 * capture at the processor. Null when neither (closeAuth then has preconditions of its own).
 */
function holdEndRefusal(row: TransactionRow, now: Date, verb: string): ApiError | null {
  if (row.authStatus !== 'active' || !row.holdExpiresAt || row.holdExpiresAt <= now) return notActive(row, now, verb);
  if (row.capturePendingCents > 0) return captureInFlight(row, verb);
  return null;
}

function notActive(row: TransactionRow, now: Date, verb: string): ApiError {
  if (row.methodType !== 'authorize') return new ApiError('not_an_authorization', `This transaction is not an authorization; there is nothing to ${verb}.`);
  const expired = row.authStatus === 'active' && row.holdExpiresAt !== null && row.holdExpiresAt <= now;
  const why = expired ? 'its hold has expired' : row.authStatus === null ? 'the consumer has not paid yet' : `it is ${row.authStatus}`;
  return new ApiError('authorization_not_active', `Cannot ${verb} this authorization: ${why} (status ${expired ? Status.Expired : row.status}).`);
}
