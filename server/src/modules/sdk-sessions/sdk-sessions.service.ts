import type { Currency, SdkPaymentRequest, SdkSession, Transaction } from '@svc/protocol';
import { CREDENTIAL_PREFIXES, Status, toBrowserTransaction } from '@svc/protocol';
import type { Tx } from '../../db/client';
import { ApiError, UnauthorizedError, ValidationError } from '../../errors';
import type { AnswerAfterCommit, MutationContext } from '../../mutations/mutation';
import type { Env } from '../../env';
import type { Outcome } from '../../mutations/stored-answer';
import type { ActionRequired, PaymentMethodInput, PaymentProcessor, ProcessorResult } from '../../processor/processor';
import { processorError, requireCapability } from '../../processor/processor-errors';
import { withoutAuthentication } from '../../processor/payment-result';
import { requiresActionAnswer, startAuthentication, type AuthenticationRow } from '../authentication';
import { assertCardUsable, confirmationOfApproval } from '../payments';
import type { ServiceDeps } from '../../service-deps';
import { offeredPaymentMethods } from '../payment-methods';
import { processorOf } from '../../processor/processor-registry';
import { payAfterCommit, type PaymentOperation, type ProcessorRequestRow, type Recording } from '../processor-requests';
import { recordChange } from '../transactions';
import { insertTransaction } from '../transactions';
import { originAllowed } from './origin-check';
import { decideAwaitingSessionPayment, insertSession, type SdkSessionRow } from './sdk-sessions.queries';
import { hashCredential } from '../../auth/credential-hash';
import { findCredentialByHash } from '../../auth/credentials.queries';
import { newConfirmationNumber, newLinkId, newTransactionNumber, randomAlphanumeric } from '../../ids';

export const SDK_SESSION_TTL_S = 30 * 60;

/**
 * `POST /sdk/sessions`: a client ID, used from one of its allowed origins, starts a widget session. The session
 * token it returns authorises only that session's payment calls.
 */
export async function createSession(
  tx: Tx,
  deps: ServiceDeps,
  input: { clientId: string; methodType: SdkSessionRow['methodType']; mode: SdkSessionRow['mode']; origin: string | undefined; maxInstallments?: number },
): Promise<SdkSession> {
  const client = await findCredentialByHash(tx, hashCredential(input.clientId));
  if (!client || client.kind !== 'client') throw new UnauthorizedError();
  if (!originAllowed(client.allowedOrigins, input.origin)) {
    throw new ApiError(
      'origin_not_allowed',
      `The origin ${input.origin ?? '(none)'} is not allowed for this client ID; add it with the client ID's allowed origins.`,
    );
  }
  if (input.mode !== deps.env.SVC_MODE) {
    throw new ValidationError([
      { path: 'mode', message: `this service runs in ${deps.env.SVC_MODE} mode; configure the SDK with mode "${deps.env.SVC_MODE}"` },
    ]);
  }
  const now = deps.clock.now();
  // What the merchant's processor offers, read once: installments, wallets and saved cards.
  const processor = await processorOf(deps, client.merchantId, tx);
  const { capabilities } = processor;
  // A widget that saves a card needs a processor that keeps it: refused before the session exists.
  if (input.methodType === 'tokenize') requireCapability(processor, 'savedCards');
  const sessionToken = `${CREDENTIAL_PREFIXES.session}${randomAlphanumeric(40)}`;
  const row = await insertSession(tx, {
    merchantId: client.merchantId,
    branchId: client.branchId,
    clientCredentialId: client.id,
    tokenHash: hashCredential(sessionToken),
    methodType: input.methodType,
    mode: input.mode,
    origin: input.origin,
    // A processor without installments offers none: the widgets then show no number of payments.
    maxInstallments: capabilities.installments ? (input.maxInstallments ?? 1) : 1,
    expiresAt: new Date(now.getTime() + SDK_SESSION_TTL_S * 1000),
    createdAt: now,
  });
  // What the merchant chose for its widgets (docs/integrating.md#payment-methods). Every method type takes every method
  // (wallets are authorised, captured and tokenized as cards are), so the method type narrows nothing further; a
  // processor without wallets narrows it to cards.
  const paymentMethods = (await offeredPaymentMethods(tx, client.merchantId)).filter((method) => method === 'card' || capabilities.wallets);
  return { sessionId: row.id, sessionToken, paymentMethods, expiresAt: row.expiresAt.toISOString(), maxInstallments: row.maxInstallments };
}

/**
 * `POST /sdk/sessions/:sessionId/payments`: the consumer approves a payment in the widget. The method is
 * authorised for the amount (verified, for tokenize), and the transaction waits in AwaitingCommit for the
 * merchant backend's commit within COMMIT_WINDOW_S. A decline ends it Declined and answers 402. The processor is
 * called outside any database transaction; the transaction is created with its decision. The answer goes to the
 * consumer's browser, so it is the browser view: its commitLink would let the consumer commit the payment themselves,
 * at the amount they chose; the merchant's backend reads it with its status query, callbacks and websocket.
 */
export async function submitSdkPayment(
  tx: Tx,
  deps: ServiceDeps,
  session: SdkSessionRow,
  input: SdkPaymentRequest,
  context: MutationContext,
): Promise<AnswerAfterCommit> {
  const now = deps.clock.now();
  // The merchant's processor (a read of its account), read once for every capability the payment needs, if any.
  let merchantProcessor: Promise<PaymentProcessor> | undefined;
  const processor = () => (merchantProcessor ??= processorOf(deps, session.merchantId, tx));
  if (input.method !== 'card') requireCapability(await processor(), 'wallets');
  if (session.methodType === 'tokenize') requireCapability(await processor(), 'savedCards');
  const offered = await offeredPaymentMethods(tx, session.merchantId);
  if (!offered.includes(input.method)) {
    throw new ApiError('payment_method_not_offered', `This merchant's widgets do not offer ${input.method}; they offer ${offered.join(', ')}.`);
  }
  if (session.methodType !== 'tokenize' && (input.amount === undefined || input.currency === undefined)) {
    throw new ValidationError([
      ...(input.amount === undefined ? [{ path: 'amount', message: `is required for ${session.methodType} (cents)` }] : []),
      ...(input.currency === undefined ? [{ path: 'currency', message: `is required for ${session.methodType}` }] : []),
    ]);
  }
  const method: PaymentMethodInput =
    input.method === 'card' && 'card' in input
      ? { method: 'card', card: assertCardUsable(input.card, now) }
      : { method: input.method as Exclude<PaymentMethodInput['method'], 'card'> };
  const installments = input.method === 'card' && 'installments' in input && input.installments !== undefined ? input.installments : 1;
  if (installments > 1) {
    requireCapability(await processor(), 'installments');
    if (installments > session.maxInstallments) {
      throw new ValidationError([{ path: 'installments', message: `must be at most ${session.maxInstallments} (the session's maxInstallments)` }]);
    }
  }
  const currency = (input.currency ?? 'USD') as Currency;
  const approvedCents = input.amount ?? 0;
  const payment: WidgetPayment = { session, method, currency, amount: input.amount, approvedCents, installments, transactionNumber: newTransactionNumber() };
  const asked = { transactionId: null, merchantId: session.merchantId, processorReference: null, amountCents: approvedCents, currency };
  return payAfterCommit(tx, deps, context, widgetPaymentOperation, payment, asked);
}

/** A widget payment as its request holds it in memory: the session, the method (a card), and what the consumer approves. */
interface WidgetPayment {
  session: SdkSessionRow;
  method: PaymentMethodInput;
  currency: Currency;
  /** The amount asked (none for a tokenization). */
  amount: number | undefined;
  approvedCents: number;
  installments: number;
  /** The number the transaction will have, chosen before the call: the processor's merchant reference. */
  transactionNumber: string;
}

/**
 * A widget payment: the method is authorised for what the consumer approves (verified, for a tokenization), and the
 * transaction is created with the decision, awaiting the merchant's commit. It commits nothing before its call.
 */
export const widgetPaymentOperation: PaymentOperation<WidgetPayment> = {
  kind: 'authorize',
  call: (processor, request, payment) =>
    processor.authorize(payment.method, payment.approvedCents, payment.currency, request.requestKey, {
      transactionNumber: payment.transactionNumber,
      installments: payment.installments,
    }),
  record: async (tx, request, answer, payment, recording) => {
    if (answer.outcome === 'requires_action' && payment.method.method === 'card') return awaitBank(tx, request, payment, answer, recording);
    const result = withoutAuthentication(answer);
    const transaction = await recordSdkPayment(tx, payment, result, recording);
    return result.outcome === 'approved' ? { body: toBrowserTransaction(transaction) } : processorError(result);
  },
};

/**
 * The processor asked for 3-D Secure: the transaction is created AwaitingAuthentication, and the widget is answered
 * 202 with the bank page, which it shows in its dialog; the authentication's end decides the payment
 * (`decideSessionAfterAuthentication`), on the same processor request key.
 */
async function awaitBank(tx: Tx, request: ProcessorRequestRow, payment: WidgetPayment, action: ActionRequired, { now, env }: Recording): Promise<Outcome> {
  const { session, method, currency, approvedCents } = payment;
  const row = await insertTransaction(tx, {
    transactionNumber: payment.transactionNumber,
    merchantId: session.merchantId,
    branchId: session.branchId,
    methodType: session.methodType,
    status: Status.AwaitingAuthentication,
    currency,
    amountCents: payment.amount ?? null,
    linkId: newLinkId(),
    paymentType: method.method,
    processor: action.processor,
    sdkSessionId: session.id,
    approvedCents,
    maxInstallments: session.maxInstallments,
    sequence: 1,
    createdAt: now,
    updatedAt: now,
  });
  const authentication = await startAuthentication(tx, {
    transactionId: row.id,
    merchantId: session.merchantId,
    sdkSessionId: session.id,
    action,
    requestKey: request.requestKey,
    operation: 'authorize',
    installments: payment.installments,
    now,
  });
  await recordChange(tx, row.id, { at: now, baseUrl: env.PUBLIC_BASE_URL, type: 'transaction.created' });
  return { status: 202, body: requiresActionAnswer(env.PUBLIC_BASE_URL, authentication.id, payment.transactionNumber) };
}

/**
 * A widget payment whose consumer answered the bank is decided: approved, it waits for the merchant's commit
 * (AwaitingCommit) as any other; declined (`authentication_failed` when the bank failed it, it was cancelled or timed
 * out), it ends Declined. Null when the transaction no longer waits on it.
 */
export async function decideSessionAfterAuthentication(
  tx: Tx,
  authentication: AuthenticationRow,
  result: ProcessorResult,
  now: Date,
  env: Pick<Env, 'PUBLIC_BASE_URL' | 'COMMIT_WINDOW_S'>,
): Promise<Outcome | null> {
  const approved = result.outcome === 'approved';
  const decided = await decideAwaitingSessionPayment(tx, {
    transactionId: authentication.transactionId,
    status: approved ? Status.AwaitingCommit : result.outcome === 'declined' ? Status.Declined : Status.Failed,
    processor: result.processor,
    supportsCloseAuth: approved && result.supportsCloseAuth,
    processorReference: approved ? result.reference : null,
    confirmation: approved ? confirmationOfApproval(result, 'card', newConfirmationNumber(), now, authentication.installments) : null,
    commitId: approved ? `cmt_${randomAlphanumeric(32)}` : null,
    commitDeadline: approved ? new Date(now.getTime() + env.COMMIT_WINDOW_S * 1000) : null,
    lastDeclineCode: result.outcome === 'declined' ? result.code : null,
    lastDeclineProcessorCode: result.outcome === 'declined' ? (result.processorCode ?? null) : null,
    now,
  });
  if (!decided) return null;
  const { transaction } = await recordChange(tx, decided.id, { at: now, baseUrl: env.PUBLIC_BASE_URL });
  return approved ? { body: toBrowserTransaction(transaction) } : processorError(result);
}

async function recordSdkPayment(tx: Tx, payment: WidgetPayment, result: ProcessorResult, { now, env }: Recording): Promise<Transaction> {
  const { session, method, currency, approvedCents } = payment;
  const confirmationNumber = newConfirmationNumber();
  const approved = result.outcome === 'approved';
  const row = await insertTransaction(tx, {
    transactionNumber: payment.transactionNumber,
    merchantId: session.merchantId,
    branchId: session.branchId,
    methodType: session.methodType,
    status: approved ? Status.AwaitingCommit : result.outcome === 'declined' ? Status.Declined : Status.Failed,
    currency,
    amountCents: payment.amount ?? null,
    linkId: newLinkId(),
    paymentType: method.method,
    processor: result.processor,
    supportsCloseAuth: approved && result.supportsCloseAuth,
    processorReference: approved ? result.reference : null,
    confirmation: approved ? confirmationOfApproval(result, method.method, confirmationNumber, now, payment.installments) : null,
    sdkSessionId: session.id,
    commitId: approved ? `cmt_${randomAlphanumeric(32)}` : null,
    commitDeadline: approved ? new Date(now.getTime() + env.COMMIT_WINDOW_S * 1000) : null,
    approvedCents: approved ? approvedCents : null,
    sequence: 1,
    createdAt: now,
    updatedAt: now,
  });
  return (await recordChange(tx, row.id, { at: now, baseUrl: env.PUBLIC_BASE_URL, type: 'transaction.created' })).transaction;
}
