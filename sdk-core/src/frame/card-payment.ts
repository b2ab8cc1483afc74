/**
 * Sends the card to the service: `POST {apiBase}/sdk/sessions/{sessionId}/payments` with the session token. Runs only in
 * the card frame, on the service's own origin; the card never leaves this request.
 */
import type { BillingAddress, SdkError, Transaction } from '@svc/protocol';
import { parseWith, readProblem, TransactionWire } from '@svc/protocol/light';
import { networkError, paymentError } from '../shared/sdk-errors';
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

export type CardPaymentOutcome =
  | { ok: true; transaction: Transaction }
  | { ok: false; error: SdkError; /** problem `errors[].path`s, e.g. card.number */ paths: string[] };

const TIMEOUT_MS = 30_000;

export async function payWithCard(session: FrameSession, request: CardPaymentRequest, fetchImpl: typeof fetch = fetch): Promise<CardPaymentOutcome> {
  const body = {
    method: 'card',
    card: request.card,
    ...(request.amount === undefined ? {} : { amount: request.amount }),
    ...(request.currency === undefined ? {} : { currency: request.currency }),
    ...(request.billingAddress === undefined ? {} : { billingAddress: request.billingAddress }),
  };
  let response: Response;
  try {
    response = await fetchImpl(`${session.apiBase}/sdk/sessions/${encodeURIComponent(session.sessionId)}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.sessionToken}` },
      body: JSON.stringify(body),
      credentials: 'omit',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    return { ok: false, error: networkError('The card payment'), paths: [] };
  }
  if (!response.ok) {
    const problem = await readProblem(response);
    return { ok: false, error: paymentError(problem), paths: problem.paths };
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    json = undefined; // reported just below as an unexpected answer
  }
  const parsed = parseWith(TransactionWire, json);
  if (!parsed.ok) {
    return {
      ok: false,
      error: { code: 'internal_error', message: `The payment service answered with an unexpected transaction (${parsed.path || 'body'} ${parsed.message}). Contact the service.` },
      paths: [],
    };
  }
  return { ok: true, transaction: parsed.value };
}
