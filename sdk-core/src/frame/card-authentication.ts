/**
 * A card payment the shopper's bank wants to authenticate (3-D Secure; docs/integrating.md#3-d-secure-and-installments-in-the-widgets): the
 * payment answered 202 `requires_action` and its transaction is 15 AwaitingAuthentication. The widget shows the bank's
 * page (`prompt`: Elements' dialog in the merchant page, through the card frame's host; the iframe SDK's widget page its
 * own) while this follows the transaction on the session's websocket: once it leaves 15 the payment's outcome is the
 * transaction's (accepted, or the decline's code). The shopper ending the dialog cancels the authentication
 * (`POST /authentication/{id}/cancel` with the session token, held only here on the service's origin): the outcome is
 * `payment_cancelled`, unless the bank had already answered.
 */
import type { BrowserTransaction, RequiresAction, SdkError } from '@svc/protocol';
import { BrowserTransactionWire, cancelAuthenticationPath, fillPath } from '@svc/protocol/light';
import { Status } from '@svc/protocol/status';
import { postJson, type ApiResult } from '../shared/post-json';
import { paymentError, transactionError } from '../shared/sdk-errors';
import type { FrameSession } from './card-payment';
import { followTransaction } from './transaction-follow';

/** The bank's page on show: `cancelled` settles when the shopper ends it; `close` takes it away. */
export interface AuthenticationPrompt {
  readonly cancelled: Promise<void>;
  close(): void;
}

/** Shows the bank's page (`url`, on the service's origin) to the shopper. */
export type Authenticate = (url: string) => AuthenticationPrompt;

/** Statuses of a payment that went through: awaiting the merchant's commit, or approved, authorized (and captured). */
const ACCEPTED: ReadonlySet<number> = new Set([Status.Approved, Status.Authorized, Status.PartiallyCaptured, Status.Captured, Status.AwaitingCommit]);

const CANCELLED: SdkError = {
  code: 'payment_cancelled',
  message: 'The shopper closed the bank\u2019s 3-D Secure page: the payment was cancelled and nothing was charged.',
};

export function authenticationIdOf(url: string): string {
  return new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
}

/** The payment's outcome from its transaction once the bank answered. */
export function outcomeOf(transaction: BrowserTransaction): ApiResult<BrowserTransaction> {
  if (ACCEPTED.has(transaction.status)) return { ok: true, value: transaction };
  return { ok: false, error: transactionError(transaction), paths: [] };
}

/** Waits for the bank's answer or the shopper's cancel; the prompt is closed either way. */
export async function awaitAuthentication(
  session: FrameSession,
  answer: RequiresAction & { transactionNumber: string },
  prompt: AuthenticationPrompt,
  log: (...details: unknown[]) => void = () => undefined,
): Promise<ApiResult<BrowserTransaction>> {
  const follow = followTransaction(session.sessionToken, answer.transactionNumber, new URL(session.apiBase).origin);
  try {
    const ended = await Promise.race([follow.settled.then((transaction) => ({ transaction })), prompt.cancelled.then(() => null)]);
    if (ended) {
      log('authentication ended', { status: ended.transaction.status });
      return outcomeOf(ended.transaction);
    }
    log('authentication cancelled by the shopper');
    const cancelled = await cancelAuthentication(session, authenticationIdOf(answer.action.url));
    // The bank may have answered just before the shopper cancelled: that outcome stands.
    if (cancelled.ok && ACCEPTED.has(cancelled.value.status)) return { ok: true, value: cancelled.value };
    return { ok: false, error: CANCELLED, paths: [] };
  } finally {
    follow.stop();
    prompt.close();
  }
}

export function cancelAuthentication(session: FrameSession, authenticationId: string): Promise<ApiResult<BrowserTransaction>> {
  return postJson(
    `${session.apiBase}${fillPath(cancelAuthenticationPath, { authenticationId })}`,
    {},
    {
      token: session.sessionToken,
      what: 'Cancelling the 3-D Secure authentication',
      validator: BrowserTransactionWire,
      onProblem: paymentError,
    },
  );
}
