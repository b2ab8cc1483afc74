/**
 * The two calls the merchant page makes itself: start a session (`POST /sdk/sessions`, checked against the page's
 * Origin) and pay with a wallet (`POST /sdk/sessions/:id/payments`). Card payments are sent by the card frame only.
 */
import type { BillingAddress, PartyInformation, CreateSdkSessionRequest, SdkError, SdkSession, Transaction, WalletMethod } from '@svc/protocol';
import { parseWith, readProblem, SdkSessionWire, TransactionWire, type Validator } from '@svc/protocol/light';
import { networkError, paymentError, sessionError } from '../shared/sdk-errors';

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: SdkError };

const TIMEOUT_MS = 30_000;

async function postJson<T>(
  url: string,
  body: unknown,
  options: { token?: string; signal: AbortSignal; what: string; validator: Validator<T>; onProblem: (problem: Awaited<ReturnType<typeof readProblem>>) => SdkError },
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const deadline = withTimeout(options.signal, TIMEOUT_MS);
  let response: Response;
  let json: unknown;
  try {
    try {
      response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'omit', signal: deadline.signal });
    } catch (error) {
      if (options.signal.aborted) throw error; // the caller gave up (element removed): not an error to report
      return { ok: false, error: networkError(options.what) };
    }
    if (!response.ok) return { ok: false, error: options.onProblem(await readProblem(response)) };
    try {
      json = await response.json();
    } catch {
      json = undefined; // reported below as an unexpected answer
    }
  } finally {
    deadline.done();
  }
  const parsed = parseWith(options.validator, json);
  if (!parsed.ok) {
    return {
      ok: false,
      error: { code: 'internal_error', message: `${options.what}: the payment service answered unexpectedly (${parsed.path || 'body'} ${parsed.message}). Check that the SDK and the service versions match.` },
    };
  }
  return { ok: true, value: parsed.value };
}

/** The caller's signal, plus a time limit (AbortSignal.any is too recent for the browsers merchants support). */
function withTimeout(signal: AbortSignal, ms: number): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new DOMException('The request took too long', 'TimeoutError')), ms);
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}

export function createSession(apiBase: string, request: CreateSdkSessionRequest, signal: AbortSignal): Promise<ApiResult<SdkSession>> {
  return postJson(`${apiBase}/sdk/sessions`, request, {
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

export function payWithWallet(apiBase: string, session: SdkSession, payment: WalletPayment, signal: AbortSignal): Promise<ApiResult<Transaction>> {
  return submitWalletPayment(apiBase, session, payment, signal, TransactionWire);
}

/**
 * `payWithWallet` reading only what `validator` names of the answer: Express needs three fields of the transaction and
 * leaves the whole transaction's validator out of its script.
 */
export function submitWalletPayment<T>(apiBase: string, session: SdkSession, payment: WalletPayment, signal: AbortSignal, validator: Validator<T>): Promise<ApiResult<T>> {
  const body = Object.fromEntries(Object.entries(payment).filter(([, value]) => value !== undefined));
  return postJson(`${apiBase}/sdk/sessions/${encodeURIComponent(session.sessionId)}/payments`, body, {
    token: session.sessionToken,
    signal,
    what: `The ${payment.method} payment`,
    validator,
    onProblem: paymentError,
  });
}
