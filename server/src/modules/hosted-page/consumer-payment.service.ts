import type { ConsumerPayRequest, Currency, TransactionStatusCode } from '@svc/protocol';
import type { Tx } from '../../db/client';
import type { Rider } from '../../db/rider';
import { ApiError, NotFoundError } from '../../errors';
import type { AnswerAfterCommit, MutationContext } from '../../mutations/mutation';
import type { Outcome } from '../../mutations/stored-answer';
import type { PaymentMethodInput, ProcessorResult } from '../../processor/processor';
import { processorError } from '../../processor/processor-errors';
import { assertCardUsable, confirmationOfApproval, newPaymentRow, newPaymentTokenRow, paymentRider, tokenRider } from '../payments';
import type { ServiceDeps } from '../../service-deps';
import { recordChange, withPayment, withToken } from '../transactions';
import { payAfterCommit, type PaymentOperation, type ProcessorRequestRow, type Recording } from '../processor-requests';
import { applyConsumerOutcome, endConsumerPayment, findLinkForConsumer, startConsumerPayment, type ConsumerOutcome } from './hosted-page.queries';
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
): Promise<AnswerAfterCommit> {
  const now = deps.clock.now();
  const method: PaymentMethodInput =
    input.method === 'card' && 'card' in input ? { method: 'card', card: assertCardUsable(input.card, now) } : (input as PaymentMethodInput);
  // The mark, the checks (the guarded write's) and the processor request in one statement; the refusal explained after.
  const paid = await payAfterCommit(tx, deps, context, linkPaymentOperation, method, {}, startConsumerPayment(linkId, now));
  if (!paid) throw await refusal(tx, linkId, now);
  return paid;
}

/**
 * A payment of a link (the hosted page, a terminal tap): a sale or an authorization, as the link's method says (its
 * guarded write, `startConsumerPayment`, gives the request its kind, merchant, amount and currency and marks the link
 * in flight). The method, a card, lives only in the request's memory. Reversed, the link is payable again.
 */
export const linkPaymentOperation: PaymentOperation<PaymentMethodInput> = {
  call: (processor, request, method) =>
    processor[paymentOperation(request)](method, request.amountCents, request.currency as Currency, request.requestKey, {
      transactionNumber: paymentTransactionNumber(request),
      installments: 1,
    }),
  record: (tx, request, result, method, recording) => recordDecision(tx, request, method, result, recording),
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

async function recordDecision(
  tx: Tx,
  request: ProcessorRequestRow,
  method: PaymentMethodInput,
  result: ProcessorResult,
  { now, env, done }: Recording,
): Promise<Outcome> {
  const { amountCents, transactionId } = request;
  const methodType = paymentOperation(request);
  const startedAt = paymentStartedAt(request);
  if (transactionId === null || startedAt === null) throw new Error(`link payment request ${request.id} names no transaction or mark`);
  const paymentType = method.method;
  const confirmationNumber = newConfirmationNumber();
  let outcome: ConsumerOutcome;
  if (result.outcome === 'approved') {
    const confirmation = confirmationOfApproval(result, paymentType, confirmationNumber, now);
    outcome =
      methodType === 'sale'
        ? { kind: 'sold', paymentType, processor: result.processor, confirmation, processorReference: result.reference }
        : {
            kind: 'authorized',
            paymentType,
            processor: result.processor,
            confirmation,
            authorizedCents: amountCents,
            holdExpiresAt: new Date(now.getTime() + env.AUTHORIZATION_HOLD_S * 1000),
            supportsCloseAuth: result.supportsCloseAuth,
          };
  } else {
    outcome = { kind: result.outcome === 'declined' ? 'declined' : 'failed', paymentType, processor: result.processor };
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
  // The request moves to done in the event's statement, with the answer.
  const recorded = await recordChange(tx, changed, {
    at: now,
    baseUrl: env.PUBLIC_BASE_URL,
    riders,
    finishing: {
      request: done,
      outcome: ({ view }) =>
        result.outcome !== 'approved'
          ? processorError(result, 'final')
          : { body: toLinkState({ row: view.row, businessName: view.merchant.name, lastFourDigits: view.token?.lastFourDigits ?? null }, now) },
    },
  });
  return recorded.outcome;
}
