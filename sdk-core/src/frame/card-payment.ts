/**
 * Sends the card to the service: `POST {apiBase}/sdk/sessions/{sessionId}/payments` with the session token. Runs only in
 * the card frame, on the service's own origin; the card never leaves this request. The answer is the browser view of
 * the transaction (no commitLink, token or POS data: those are the merchant backend's).
 */
import type { BillingAddress, BrowserTransaction, RequiresAction } from '@svc/protocol';
import { BrowserTransactionWire, fillPath, RequiresActionWire, submitSdkPaymentPath, type Validator } from '@svc/protocol/light';
import { postJson, type ApiResult } from '../shared/post-json';
import { paymentError } from '../shared/sdk-errors';
import type { CardInput } from './card-form';

export interface FrameSession {
  sessionId: string;
  sessionToken: string;
  apiBase: string;
  debug: boolean;
}

export interface CardPaymentRequest {
  card: CardInput;
  amount?: number | undefined;
  currency?: string | undefined;
  billingAddress?: BillingAddress | undefined;
  /** The number of payments the shopper chose, when the widget offers installments. */
  installments?: number | undefined;
}

/** A refusal carries the problem's `errors[].path`s (e.g. `card.number`) for the form to show on its fields. */
export type CardPaymentOutcome = ApiResult<BrowserTransaction | RequiresAction>;

/** The payment's answer: the transaction (200), or 202 `requires_action` when the shopper's bank asks for 3-D Secure. */
const CardPaymentAnswerWire: Validator<BrowserTransaction | RequiresAction> = (input, path) =>
  isRequiresAction(input) ? RequiresActionWire(input, path) : BrowserTransactionWire(input, path);

export function isRequiresAction(answer: unknown): answer is RequiresAction {
  return typeof answer === 'object' && answer !== null && (answer as { status?: unknown }).status === 'requires_action';
}

export function payWithCard(session: FrameSession, request: CardPaymentRequest): Promise<CardPaymentOutcome> {
  const body = {
    method: 'card',
    card: request.card,
    ...(request.amount === undefined ? {} : { amount: request.amount }),
    ...(request.currency === undefined ? {} : { currency: request.currency }),
    ...(request.billingAddress === undefined ? {} : { billingAddress: request.billingAddress }),
    ...(request.installments === undefined ? {} : { installments: request.installments }),
  };
  return postJson(`${session.apiBase}${fillPath(submitSdkPaymentPath, { sessionId: session.sessionId })}`, body, {
    token: session.sessionToken,
    what: 'The card payment',
    validator: CardPaymentAnswerWire,
    onProblem: paymentError,
  });
}
