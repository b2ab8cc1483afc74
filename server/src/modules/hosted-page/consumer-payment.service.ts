import { Status, type ConsumerPayRequest, type Currency, type TransactionStatusCode, type WalletMethod } from '@svc/protocol';
import type { Tx } from '../../db/client';
import type { Rider } from '../../db/rider';
import type { Env } from '../../env';
import { ApiError, NotFoundError, ValidationError } from '../../errors';
import type { AnswerAfterCommit, MutationContext } from '../../mutations/mutation';
import type { Outcome } from '../../mutations/stored-answer';
import type { ActionRequired, PaymentMethodInput, PaymentResult, ProcessorResult } from '../../processor/processor';
import { processorError, requireCapability } from '../../processor/processor-errors';
import { withoutAuthentication } from '../../processor/payment-result';
import { requiresActionAnswer, startAuthentication, type AuthenticationRow } from '../authentication';
import { processorOf } from '../../processor/processor-registry';
import { assertCardUsable, confirmationOfApproval, newPaymentRow, newPaymentTokenRow, paymentRider, tokenRider } from '../payments';
import type { ServiceDeps } from '../../service-deps';
import { loadTransactionView, recordChange, withPayment, withToken, type TransactionView } from '../transactions';
import { payAfterCommit, type PaymentOperation, type PendingDone, type ProcessorRequestRow, type Recording } from '../processor-requests';
import {
  applyConsumerOutcome,
  awaitAuthentication,
  endConsumerPayment,
  findLinkForConsumer,
  startConsumerPayment,
  type ConsumerOutcome,
} from './hosted-page.queries';
import { LINK_PAYABLE_METHOD_TYPES, LINK_PAYABLE_STATUSES } from './link-payable';
import { toLinkState } from './link-state';
import { newConfirmationNumber, newPaymentId, newToken } from '../../ids';

/**
 * `POST /pay/:linkId`: the consumer pays. A sale is charged (Approved); an authorization places its hold and
 * issues the token (Authorized). A decline (Declined) or a processor failure (Failed) is committed, while the consumer is
 * answered 402 or 502; after a decline the consumer may try again with another method (link-payable.ts). The card never
 * leaves this function but to the processor. The payment is marked in flight by a guarded write that commits first,
 * with its processor request; the processor is called after that, outside any lock, and its decision recorded in a
 * transaction of its own (payAfterCommit: a payment not answered, or whose decision cannot be recorded, is reversed and
 * the link payable again).
 */
export async function payLink(
  tx: Tx,
  deps: ServiceDeps,
  linkId: string,
  input: ConsumerPayRequest & { method: string },
  context: MutationContext,
  { threeDSecure = true }: { threeDSecure?: boolean } = {},
): Promise<AnswerAfterCommit> {
  const now = deps.clock.now();
  const method: PaymentMethodInput =
    input.method === 'card' && 'card' in input ? { method: 'card', card: assertCardUsable(input.card, now) } : { method: input.method as WalletMethod };
  if (method.method !== 'card') {
    // A wallet the merchant's processor cannot take is refused before the link is marked in flight.
    const link = await findLinkForConsumer(tx, linkId);
    if (link) requireCapability(await processorOf(deps, link.row.merchantId, tx), 'wallets');
  }
  const installments = 'installments' in input && input.installments !== undefined ? input.installments : 1;
  if (installments > 1) await checkInstallments(tx, deps, linkId, installments);
  // The mark, the checks (the guarded write's) and the processor request in one statement; the refusal explained after.
  const payment: LinkPayment = { method, installments, threeDSecure };
  const paid = await payAfterCommit(tx, deps, context, linkPaymentOperation, payment, {}, startConsumerPayment(linkId, now));
  if (!paid) throw await refusal(tx, linkId, now);
  return paid;
}

/**
 * Installments above 1: the merchant's processor must offer them (409 `processor_unsupported`, before anything moves),
 * and the link's `maxInstallments` allow as many (400 naming `installments`).
 */
async function checkInstallments(tx: Tx, deps: ServiceDeps, linkId: string, installments: number): Promise<void> {
  const link = await findLinkForConsumer(tx, linkId);
  if (!link) return; // the payment's own refusal says so
  requireCapability(await processorOf(deps, link.row.merchantId, tx), 'installments');
  if (installments > link.row.maxInstallments) {
    throw new ValidationError([{ path: 'installments', message: `must be at most ${link.row.maxInstallments} (the payment's maxInstallments)` }]);
  }
}

/**
 * A link payment as its request holds it in memory: the method (a card lives only here), the installments chosen, and
 * whether a consumer is there to answer the bank (the hosted page; not a terminal tap).
 */
export interface LinkPayment {
  method: PaymentMethodInput;
  installments: number;
  threeDSecure: boolean;
}

/**
 * A payment of a link (the hosted page, a terminal tap): a sale or an authorization, as the link's method says (its
 * guarded write, `startConsumerPayment`, gives the request its kind, merchant, amount and currency and marks the link
 * in flight). The method, a card, lives only in the request's memory. Reversed, the link is payable again.
 */
export const linkPaymentOperation: PaymentOperation<LinkPayment> = {
  call: (processor, request, payment) =>
    processor[paymentOperation(request)](payment.method, request.amountCents, request.currency as Currency, request.requestKey, {
      transactionNumber: paymentTransactionNumber(request),
      installments: payment.installments,
    }),
  record: (tx, request, result, payment, recording) => recordDecision(tx, request, payment, result, recording),
  undo: endReversedConsumerPayment,
};

/** Why a link cannot be paid now, read after its guarded write refused. */
async function refusal(tx: Tx, linkId: string, now: Date): Promise<ApiError> {
  const row = (await findLinkForConsumer(tx, linkId))?.row;
  if (!row) return new NotFoundError('payment link');
  if (!(LINK_PAYABLE_METHOD_TYPES as readonly string[]).includes(row.methodType)) {
    return new ApiError('transaction_not_payable', "This transaction is paid through the merchant's checkout, not a payment link.");
  }
  if (row.timeoutAt !== null && row.timeoutAt <= now)
    return new ApiError('transaction_not_payable', 'This payment link has timed out; ask the merchant for a new one.');
  if (!LINK_PAYABLE_STATUSES.includes(row.status as TransactionStatusCode))
    return new ApiError('transaction_not_payable', `This payment is no longer open (status ${row.status}).`);
  if (row.amountCents === null) return new ApiError('transaction_not_payable', 'The merchant has not set the amount of this payment yet.');
  return new ApiError('transaction_not_payable', 'A payment of this link is being processed; wait for its outcome.');
}

/** The processor call a link payment's request makes: its operation, which the guarded write set from the link's method. */
function paymentOperation(request: ProcessorRequestRow): 'sale' | 'authorize' {
  const { operation } = request;
  if (operation !== 'sale' && operation !== 'authorize') throw new Error(`link payment request ${request.id} has the operation ${operation}`);
  return operation;
}

/** The number of the transaction the link payment `request` pays (its guarded write kept it), the processor's merchant reference. */
function paymentTransactionNumber(request: ProcessorRequestRow): string {
  const { transactionNumber } = request.details as { transactionNumber?: unknown };
  if (typeof transactionNumber !== 'string') throw new Error(`link payment request ${request.id} names no transaction number`);
  return transactionNumber;
}

/** When the link payment `request` was marked in flight (its mark, as the guarded write that started it set it). */
function paymentStartedAt(request: ProcessorRequestRow): Date | null {
  const { consumerPaymentSince } = request.details as { consumerPaymentSince?: unknown };
  return typeof consumerPaymentSince === 'string' ? new Date(consumerPaymentSince) : null;
}

/**
 * A link payment reversed at the processor (not answered in time, or its decision not recorded) is over: the link is
 * payable again, unless another payment took over meanwhile. The card is not kept, so it is never tried again.
 */
async function endReversedConsumerPayment(tx: Tx, request: ProcessorRequestRow): Promise<void> {
  const startedAt = paymentStartedAt(request);
  if (request.transactionId !== null && startedAt) await endConsumerPayment(tx, request.transactionId, startedAt);
}

async function recordDecision(tx: Tx, request: ProcessorRequestRow, payment: LinkPayment, answer: PaymentResult, recording: Recording): Promise<Outcome> {
  const { amountCents, transactionId } = request;
  const methodType = paymentOperation(request);
  const startedAt = paymentStartedAt(request);
  if (transactionId === null || startedAt === null) throw new Error(`link payment request ${request.id} names no transaction or mark`);
  if (answer.outcome === 'requires_action' && payment.threeDSecure && payment.method.method === 'card') {
    return awaitBank(tx, request, { transactionId, startedAt, methodType, installments: payment.installments }, answer, recording);
  }
  const decision = { transactionId, startedAt, methodType, amountCents, paymentType: payment.method.method, installments: payment.installments };
  return recordLinkDecision(
    tx,
    decision,
    withoutAuthentication(answer),
    recording.now,
    recording.env.PUBLIC_BASE_URL,
    recording.env.AUTHORIZATION_HOLD_S,
    recording.done,
  );
}

/**
 * The processor asked for 3-D Secure: the link waits for the consumer's bank (AwaitingAuthentication), the request is
 * done with the 202 answer that sends the consumer to the bank page, and the authentication's end decides the payment
 * (`decideAfterAuthentication`), on the same processor request key.
 */
async function awaitBank(
  tx: Tx,
  request: ProcessorRequestRow,
  wait: { transactionId: string; startedAt: Date; methodType: 'sale' | 'authorize'; installments: number },
  action: ActionRequired,
  { now, env, done }: Recording,
): Promise<Outcome> {
  const [view] = await awaitAuthentication(tx, { transactionId: wait.transactionId, processor: action.processor, startedAt: wait.startedAt, now });
  if (!view) throw new Error(`consumer payment of transaction ${wait.transactionId} started at ${wait.startedAt.toISOString()} is no longer the one in flight`);
  const authentication = await startAuthentication(tx, {
    transactionId: wait.transactionId,
    merchantId: view.row.merchantId,
    sdkSessionId: null,
    action,
    requestKey: request.requestKey,
    operation: wait.methodType,
    installments: wait.installments,
    now,
  });
  const recorded = await recordChange(tx, view, {
    at: now,
    baseUrl: env.PUBLIC_BASE_URL,
    finishing: { request: done, outcome: () => ({ status: 202, body: requiresActionAnswer(env.PUBLIC_BASE_URL, authentication.id) }) },
  });
  return recorded.outcome;
}

/** What a link payment's decision needs besides the processor's result. */
interface LinkDecision {
  transactionId: string;
  /** The link's in-flight mark of this payment: the decision is recorded only on it. */
  startedAt: Date;
  methodType: 'sale' | 'authorize';
  amountCents: number;
  paymentType: string;
  installments: number;
}

/**
 * A link payment whose consumer answered the bank is decided (docs/integrating.md#3-d-secure): the processor's decision
 * on the same payment, recorded as any other on the link's mark, with its event and callback. A failed, cancelled or
 * timed-out authentication comes here as a decline `authentication_failed`. Null when the link no longer waits on it.
 */
export async function decideAfterAuthentication(
  tx: Tx,
  authentication: AuthenticationRow,
  result: ProcessorResult,
  now: Date,
  env: Pick<Env, 'PUBLIC_BASE_URL' | 'AUTHORIZATION_HOLD_S'>,
): Promise<Outcome | null> {
  const view = await loadTransactionView(tx, authentication.transactionId);
  const { row } = view;
  if (row.status !== Status.AwaitingAuthentication || row.consumerPaymentSince === null || row.amountCents === null) return null;
  const decision = {
    transactionId: row.id,
    startedAt: row.consumerPaymentSince,
    methodType: authentication.operation,
    amountCents: row.amountCents,
    paymentType: 'card',
    installments: authentication.installments,
  };
  return recordLinkDecision(tx, decision, result, now, env.PUBLIC_BASE_URL, env.AUTHORIZATION_HOLD_S, null);
}

async function recordLinkDecision(
  tx: Tx,
  decision: LinkDecision,
  result: ProcessorResult,
  now: Date,
  baseUrl: string,
  holdS: number,
  done: PendingDone | null,
): Promise<Outcome> {
  const { amountCents, transactionId, methodType, startedAt, paymentType } = decision;
  const confirmationNumber = newConfirmationNumber();
  let outcome: ConsumerOutcome;
  if (result.outcome === 'approved') {
    const confirmation = confirmationOfApproval(result, paymentType, confirmationNumber, now, decision.installments);
    outcome =
      methodType === 'sale'
        ? { kind: 'sold', paymentType, processor: result.processor, confirmation, processorReference: result.reference }
        : {
            kind: 'authorized',
            paymentType,
            processor: result.processor,
            confirmation,
            authorizedCents: amountCents,
            holdExpiresAt: new Date(now.getTime() + holdS * 1000),
            supportsCloseAuth: result.supportsCloseAuth,
          };
  } else if (result.outcome === 'declined') {
    outcome = { kind: 'declined', paymentType, processor: result.processor, code: result.code, processorCode: result.processorCode ?? null };
  } else {
    outcome = { kind: 'failed', paymentType, processor: result.processor };
  }
  const updated = await applyConsumerOutcome(tx, transactionId, outcome, startedAt, now);
  // Only a payment in flight past CONSUMER_PAYMENT_STALE_S, taken over by another, gets here: its decision cannot be
  // recorded, and payAfterCommit reverses it at the processor.
  if (!updated) throw new Error(`consumer payment of transaction ${transactionId} started at ${startedAt.toISOString()} is no longer the one in flight`);
  // The payment or token goes into the database with the event, in its statement (a rider of recordChange's).
  const row = updated.row;
  let changed = updated;
  const riders: Rider[] = [];
  if (methodType === 'sale') {
    const payment = newPaymentRow({
      paymentId: newPaymentId(),
      transactionId: row.id,
      merchantId: row.merchantId,
      kind: 'sale',
      amountCents,
      status: outcome.kind === 'sold' ? 'succeeded' : 'failed',
      confirmationNumber: outcome.kind === 'sold' ? confirmationNumber : null,
      createdAt: now,
    });
    changed = withPayment(changed, payment);
    riders.push(paymentRider(payment));
  }
  if (result.outcome === 'approved' && methodType === 'authorize') {
    const token = newPaymentTokenRow({
      token: newToken('authorization'),
      type: 'authorization',
      merchantId: row.merchantId,
      branchId: row.branchId,
      transactionId: row.id,
      processor: result.processor,
      processorReference: result.reference,
      paymentMethod: paymentType,
      lastFourDigits: result.lastFourDigits,
      createdAt: now,
    });
    changed = withToken(changed, token);
    riders.push(tokenRider(token));
  }
  const answerOf = ({ view }: { view: TransactionView }): Outcome =>
    result.outcome !== 'approved'
      ? processorError(result, 'final')
      : { body: toLinkState({ row: view.row, businessName: view.merchant.name, lastFourDigits: view.token?.lastFourDigits ?? null }, now) };
  if (!done) {
    const recorded = await recordChange(tx, changed, { at: now, baseUrl, riders });
    return answerOf({ view: recorded.view });
  }
  // The request moves to done in the event's statement, with the answer.
  const recorded = await recordChange(tx, changed, { at: now, baseUrl, riders, finishing: { request: done, outcome: answerOf } });
  return recorded.outcome;
}
