/**
 * From the service's problem+json answers (docs/integrating.md#errors, read by `readProblem` of `@svc/protocol/light`) to the SDK error
 * codes of `SDK_ERROR_CODES`, with messages that tell the integrator what to do. Shared by the host (sessions, wallet
 * payments) and the card frame (card payments), so a declined card reads the same whichever side sent the payment.
 */
import type { BrowserTransaction, SdkError } from '@svc/protocol';
import type { ProblemInfo } from '@svc/protocol/light';
import { Status } from '@svc/protocol/status';

const retryLater = (problem: ProblemInfo): string =>
  `The payment service answered HTTP ${problem.status}${problem.code ? ` (${problem.code})` : ''}${problem.detail ? `: ${problem.detail}` : ''}. ` +
  `Try again in a moment; if it keeps happening, contact the service with request id ${problem.requestId ?? 'unknown'}.`;

export function networkError(what: string): SdkError {
  return {
    code: 'network_error',
    message: `${what} failed: the payment service could not be reached. Check the network connection and try again.`,
  };
}

/** `POST /sdk/sessions` refusals. */
export function sessionError(problem: ProblemInfo, clientId: string, origin: string): SdkError {
  if (problem.status === 401) {
    return {
      code: 'client_id_unknown',
      message: `The client ID "${clientId}" is not known to the payment service. Copy it from your merchant credentials, and check that mode matches it (sandbox or production).`,
    };
  }
  if (problem.code === 'origin_not_allowed') {
    return {
      code: 'origin_not_allowed',
      message: `This page's origin (${origin}) is not allowed for client ID "${clientId}". Add the origin to the client ID's allowed origins.`,
    };
  }
  if (problem.status === 400) {
    return {
      code: 'config_invalid',
      message: `The payment service refused the configuration: ${problem.detail ?? 'invalid request'}. Check the options passed to config().`,
    };
  }
  return { code: problem.status === 503 ? 'network_error' : 'internal_error', message: retryLater(problem) };
}

/** The one message of each way the processor leaves a payment unpaid. */
const DECLINES = {
  card_declined: 'The card was declined. Ask the customer to use another card or payment method.',
  insufficient_funds: 'The card has insufficient funds. Ask the customer to use another card or payment method.',
  authentication_failed: "The card holder's bank did not confirm the payment (3-D Secure). Ask the customer to try again or use another card.",
  processor_failure: 'The payment processor failed. Nothing was charged; try the payment again in a moment.',
} as const satisfies Partial<Record<SdkError['code'], string>>;

/**
 * A payment the processor did not take, from the code the service gave it (a refusal's problem code, or a transaction's
 * `lastDeclineCode`): one message whichever way it came. Any other decline (an expired card, a wrong security code,
 * none named) is `card_declined`.
 */
function declineError(code: string | null): SdkError {
  const known: keyof typeof DECLINES = code !== null && Object.hasOwn(DECLINES, code) ? (code as keyof typeof DECLINES) : 'card_declined';
  return { code: known, message: DECLINES[known] };
}

/**
 * A payment's transaction that ended unpaid (after 3-D Secure, the widget follows it to its end): Failed is the
 * processor's failure, anything else a decline, read as the same refusal of `paymentError` reads.
 */
export function transactionError(transaction: Pick<BrowserTransaction, 'status' | 'lastDeclineCode'>): SdkError {
  return declineError(transaction.status === Status.Failed ? 'processor_failure' : transaction.lastDeclineCode);
}

const invalidCard = (problem: ProblemInfo): SdkError => ({
  code: 'invalid_card',
  message: `The card details are not valid${problem.detail ? ` (${problem.detail})` : ''}. Ask the customer to check them.`,
});

/** `POST /sdk/sessions/:id/payments` refusals, for cards and wallets alike. */
export function paymentError(problem: ProblemInfo): SdkError {
  switch (problem.code) {
    case 'invalid_card':
      return invalidCard(problem);
    case 'origin_not_allowed':
      return { code: 'origin_not_allowed', message: "This page's origin is not allowed for the client ID. Add it to the client ID's allowed origins." };
    case 'validation_failed':
      if (problem.paths.some((path) => path === 'amount' || path === 'currency')) {
        return {
          code: 'invalid_amount',
          message: `The payment service refused the amount: ${problem.detail ?? 'invalid amount'}. Pass pay(callback, { amount, currency }) with the amount in cents.`,
        };
      }
      if (problem.paths.some((path) => path.startsWith('card'))) return invalidCard(problem);
      break;
    default:
  }
  // 402: the processor declined the payment (the problem's code says how); 502: the processor failed.
  if (problem.status === 402) return declineError(problem.code);
  if (problem.status === 502) return declineError('processor_failure');
  if (problem.status === 401) {
    return { code: 'session_expired', message: 'The payment session expired. A new session is being started; ask the customer to pay again.' };
  }
  return { code: problem.status === 503 ? 'network_error' : 'internal_error', message: retryLater(problem) };
}

/**
 * What a widget's `pay()` rejects with when it has already reported the error (through its error event): the SDK
 * does not report it a second time. Any other rejection is a defect, reported as `internal_error`.
 */
export class SdkErrorException extends Error {
  readonly code: SdkError['code'];
  constructor(readonly error: SdkError) {
    super(error.message);
    this.name = 'SdkError';
    this.code = error.code;
  }
}
