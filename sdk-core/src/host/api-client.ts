/**
 * The two calls the merchant page makes itself: start a session (`POST /sdk/sessions`, checked against the page's
 * Origin) and pay with a wallet (`POST /sdk/sessions/:id/payments`). Card payments are sent by the card frame only.
 */
import type { BillingAddress, BrowserTransaction, PartyInformation, CreateSdkSessionRequest, SdkSession, WalletMethod } from '@svc/protocol';
import { BrowserTransactionWire, createSdkSessionPath, fillPath, SdkSessionWire, submitSdkPaymentPath, type Validator } from '@svc/protocol/light';
import { postJson, type ApiResult } from '../shared/post-json';
import { paymentError, sessionError } from '../shared/sdk-errors';

export type { ApiResult };

export function createSession(apiBase: string, request: CreateSdkSessionRequest, signal: AbortSignal): Promise<ApiResult<SdkSession>> {
  return postJson(`${apiBase}${fillPath(createSdkSessionPath)}`, request, {
    signal,
    what: 'Starting the payment session',
    validator: SdkSessionWire,
    onProblem: (problem) => sessionError(problem, request.clientId, location.origin),
  });
}

export interface WalletPayment {
  method: WalletMethod;
  amount?: number | undefined;
  currency?: string | undefined;
  billingAddress?: BillingAddress | undefined;
  /** Express: the wallet sheet's billing and shipping details (protocol `PartyInformation`). */
  billingInformation?: PartyInformation | undefined;
  shippingInformation?: PartyInformation | undefined;
}

/** The answer is the browser view of the transaction: no commitLink, token or POS data (those are the merchant backend's). */
export function payWithWallet(apiBase: string, session: SdkSession, payment: WalletPayment, signal: AbortSignal): Promise<ApiResult<BrowserTransaction>> {
  return submitWalletPayment(apiBase, session, payment, signal, BrowserTransactionWire);
}

/**
 * `payWithWallet` reading only what `validator` names of the answer: Express needs three fields of the transaction and
 * leaves the whole transaction's validator out of its script.
 */
export function submitWalletPayment<T>(
  apiBase: string,
  session: SdkSession,
  payment: WalletPayment,
  signal: AbortSignal,
  validator: Validator<T>,
): Promise<ApiResult<T>> {
  const body = Object.fromEntries(Object.entries(payment).filter(([, value]) => value !== undefined));
  return postJson(`${apiBase}${fillPath(submitSdkPaymentPath, { sessionId: session.sessionId })}`, body, {
    token: session.sessionToken,
    signal,
    what: `The ${payment.method} payment`,
    validator,
    onProblem: paymentError,
  });
}
