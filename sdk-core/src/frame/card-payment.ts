/**
 * Sends the card to the service: `POST {apiBase}/sdk/sessions/{sessionId}/payments` with the session token. Runs only in
 * the card frame, on the service's own origin; the card never leaves this request. The answer is the browser view of
 * the transaction (no commitLink, token or POS data: those are the merchant backend's).
 */
import type { BillingAddress, BrowserTransaction } from '@svc/protocol';
import { BrowserTransactionWire, fillPath, submitSdkPaymentPath } from '@svc/protocol/light';
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
}

/** A refusal carries the problem's `errors[].path`s (e.g. `card.number`) for the form to show on its fields. */
export type CardPaymentOutcome = ApiResult<BrowserTransaction>;

export function payWithCard(session: FrameSession, request: CardPaymentRequest): Promise<CardPaymentOutcome> {
  const body = {
    method: 'card',
    card: request.card,
    ...(request.amount === undefined ? {} : { amount: request.amount }),
    ...(request.currency === undefined ? {} : { currency: request.currency }),
    ...(request.billingAddress === undefined ? {} : { billingAddress: request.billingAddress }),
  };
  return postJson(`${session.apiBase}${fillPath(submitSdkPaymentPath, { sessionId: session.sessionId })}`, body, {
    token: session.sessionToken,
    what: 'The card payment',
    validator: BrowserTransactionWire,
    onProblem: paymentError,
  });
}
