import { z } from 'zod';

/** One error code's entry: what the reference (`/docs/errors`, the OpenAPI document) says about it. */
export interface ApiErrorEntry {
  status: number;
  title: string;
  /** What makes the service answer it. */
  cause: string;
  /** What the integrator does about it. */
  fix: string;
}

/**
 * Every stable error `code` the service answers with: its HTTP status, a short title, its cause and what to do.
 * Integrators switch on `code`; the title and `detail` are for humans. Adding a code is fine; renaming or removing
 * one breaks merchants.
 */
export const API_ERRORS = {
  validation_failed: {
    status: 400,
    title: 'The request is not valid',
    cause: 'A field is missing, of the wrong type or out of range; `errors` names each one by its path.',
    fix: 'Correct the fields `errors` lists and send again (a refused request is not stored, so the same Idempotency-Key may be used).',
  },
  malformed_json: {
    status: 400,
    title: 'The request body is not valid JSON',
    cause: 'The body could not be parsed as JSON.',
    fix: 'Send a JSON object with `Content-Type: application/json`; serialise it with your JSON library rather than by hand.',
  },
  malformed_request: {
    status: 400,
    title: 'The request could not be read',
    cause: 'The request itself was broken: a bad header, a truncated body, a path parameter that is not one (a transaction number with a slash, say).',
    fix: 'Check the URL and headers; use the values the service gave you (TransactionNumber, deliveryId) as they are.',
  },
  invalid_card: {
    status: 400,
    title: 'The card details are not valid',
    cause: 'The card number fails its check digit, the expiry is past, or the security code has the wrong length.',
    fix: 'Ask the consumer to check the card details; nothing was sent to the processor.',
  },
  callback_url_not_allowed: {
    status: 400,
    title: 'The callback URL is not allowed',
    cause: '`callbackURL` is not https in production, or names a private, loopback or link-local address.',
    fix: 'Use a public https URL of your backend; for local development run the service in sandbox mode with CALLBACK_ALLOW_PRIVATE_NETWORKS.',
  },
  unauthorized: {
    status: 401,
    title: 'Missing or unknown credentials',
    cause: 'No `Authorization: Bearer` key (or body `apiKey`), or a key the service does not know or has revoked.',
    fix: 'Send a merchant (`sk_…`) or branch (`bk_…`) API key as `Authorization: Bearer <key>`; check it was copied whole.',
  },
  card_declined: {
    status: 402,
    title: 'The card was declined',
    cause: 'The processor declined the card.',
    fix: 'Ask the consumer for another card or payment method; retrying the same card will not help.',
  },
  insufficient_funds: {
    status: 402,
    title: 'The card has insufficient funds',
    cause: 'The processor declined the card for lack of funds.',
    fix: 'Ask the consumer for another card, or a smaller amount.',
  },
  expired_card: {
    status: 402,
    title: 'The card has expired',
    cause: "The processor declined the card as expired (its own code is the attempt's `processorCode`).",
    fix: 'Ask the consumer for another card; retrying the same card will not help.',
  },
  incorrect_cvc: {
    status: 402,
    title: 'The security code is incorrect',
    cause: "The processor declined the card's security code (its own code is the attempt's `processorCode`).",
    fix: 'Ask the consumer to check the security code, or for another card.',
  },
  authentication_failed: {
    status: 402,
    title: 'The card holder was not authenticated',
    cause: "The card's issuer (3-D Secure) did not authenticate the card holder, so the processor declined the payment.",
    fix: "Ask the consumer to try again and complete the bank's check, or to use another card.",
  },
  refund_declined: {
    status: 402,
    title: 'The processor declined the refund',
    cause: 'The processor refused to give the money back; the refund is kept as `failed` with its `failureCode`, and the transaction is unchanged.',
    fix: 'Check the failure code; refund the consumer another way (or with your acquirer), or retry later with a new Idempotency-Key.',
  },
  client_id_not_allowed: {
    status: 403,
    title: 'A client ID cannot call this endpoint',
    cause: 'A client ID (`ck_…`) was sent to an endpoint for merchant keys; client IDs belong in the browser SDKs.',
    fix: 'Call merchant endpoints from your backend with your API key; keep the client ID for `ServiceFrontEndSDK.config`.',
  },
  credential_not_allowed: {
    status: 403,
    title: 'This credential cannot call this endpoint',
    cause:
      'A known credential of a kind this endpoint does not take, in the header or the body (a device ID where no device may act, a branch key where only the merchant key may).',
    fix: 'Use the credential the endpoint lists under its callers (a merchant or branch API key for most).',
  },
  origin_not_allowed: {
    status: 403,
    title: 'This origin is not allowed for the client ID',
    cause: "The page's `Origin` is not on the client ID's list of allowed origins.",
    fix: "Add the page's origin (scheme, host and port) to the client ID's allowed origins.",
  },
  sandbox_only: {
    status: 403,
    title: 'This endpoint exists only in sandbox mode',
    cause: 'A sandbox tool (test clock, message outbox, terminal simulator) was called on a production service.',
    fix: 'Use it against a sandbox service only.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    cause: 'Nothing of that id exists for your credentials: an unknown id, or one of another merchant or branch (never told apart).',
    fix: "Check the id, and that the key is the merchant's or the branch's that made it.",
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    cause: 'The path exists but not with this HTTP method.',
    fix: 'Use the method the reference gives for the path (most changes are POST).',
  },
  processor_unsupported: {
    status: 409,
    title: "The merchant's processor cannot do this",
    cause:
      "The merchant's payment processor does not offer this operation (`detail` names the processor and the capability); nothing was asked of it and nothing changed.",
    fix: "Do without it (for example one capture for the whole amount), or ask the operator which processor the merchant's account uses (`/docs`, the capability table).",
  },
  transaction_not_cancellable: {
    status: 409,
    title: 'The transaction cannot be cancelled',
    cause: 'Only a Pending (1) transaction can be cancelled; this one was already paid, declined, timed out or cancelled.',
    fix: 'Read its status; void an authorization instead, or leave a finished transaction as it is.',
  },
  transaction_not_payable: {
    status: 409,
    title: 'The transaction cannot be paid',
    cause: 'The consumer tried to pay a transaction that is no longer Pending.',
    fix: "Show the consumer the transaction's state; create a new transaction to take another payment.",
  },
  amount_exceeds_available: {
    status: 409,
    title: 'The amount exceeds what is still available on the authorization',
    cause: 'The capture is larger than what the hold still has (captures in flight count); `detail` names what is left.',
    fix: 'Capture at most `authorization.availableCents`, or re-authorize for more first.',
  },
  authorization_not_active: {
    status: 409,
    title: 'The authorization is not active',
    cause:
      'The hold is captured, voided, closed or expired, or the consumer has not paid the authorization yet; a re-authorization also waits for a refund of the captures still at the processor (`detail` says which).',
    fix: "Read the transaction: re-authorize an expired hold (/transactions/authorize), or wait for the consumer's payment.",
  },
  capture_in_flight: {
    status: 409,
    title: 'A capture on the authorization is still waiting for the processor',
    cause: "A capture's processor call has not been answered; void and closeAuth wait for it. `detail` names the amount.",
    fix: 'Try again in a moment: the capture either succeeds or is refused, then the void or closeAuth can run.',
  },
  not_an_authorization: {
    status: 409,
    title: 'The transaction is not an authorization',
    cause: 'The transaction or token is a sale or a saved card, which holds nothing to capture, void or close.',
    fix: 'Cancel a pending sale; charge a saved card with its token on /transactions/pay.',
  },
  no_successful_payment: {
    status: 409,
    title: 'The authorization has no successful payment',
    cause: 'closeAuth needs at least one successful capture.',
    fix: 'Without a capture, release the hold with /transactions/void.',
  },
  nothing_to_release: {
    status: 409,
    title: 'Nothing is left to release on the authorization',
    cause: 'The authorization is fully captured: closeAuth has nothing to release.',
    fix: 'Nothing to do: the authorization is complete.',
  },
  close_auth_unsupported: {
    status: 409,
    title: "The authorization's processor does not support closing",
    cause: 'The processor that holds the authorization cannot close it (`authorization.supportsCloseAuth` is false).',
    fix: 'Release the remainder with /transactions/void instead; captures already made stay.',
  },
  not_awaiting_commit: {
    status: 409,
    title: 'The transaction is not awaiting a commit',
    cause: 'The commit was for a transaction that is not in AwaitingCommit (10): already committed, expired, or never a widget payment.',
    fix: 'Read the transaction; a second commit of the same payment is not needed (send the same Idempotency-Key to retry safely).',
  },
  commit_window_expired: {
    status: 409,
    title: 'The commit window has expired',
    cause: 'The commit came after `secondsToCommit`; the payment was released and the transaction reads Expired (11).',
    fix: "Commit sooner after the widget's `pay` callback; ask the consumer to pay again.",
  },
  amount_exceeds_approved: {
    status: 409,
    title: 'The amount exceeds what the consumer approved',
    cause: "The commit's amount is more than the consumer approved in the widget.",
    fix: "Commit at most the amount passed to the widget's `pay`.",
  },
  nothing_to_refund: {
    status: 409,
    title: 'Nothing settled on the transaction can be refunded',
    cause:
      'Nothing was settled: the transaction is pending, declined, cancelled, timed out, awaiting commit, failed, a tokenization, or an authorization voided without captures.',
    fix: 'Cancel a pending transaction and void a hold; a refund gives back settled money only. The detail says which applies.',
  },
  authorization_active: {
    status: 409,
    title: 'The authorization still holds funds; void or close it first',
    cause: 'The authorization is still active (status 5 or 6): what it holds is released, not refunded.',
    fix: 'Void it (or closeAuth it after a capture) first, then refund the captures.',
  },
  amount_exceeds_refundable: {
    status: 409,
    title: 'The amount exceeds what is still refundable',
    cause: 'The amount is more than what was settled less what was refunded and what refunds in flight have reserved.',
    fix: 'Refund at most `refundableCents` (the detail names it), or leave `amount` out to refund everything left.',
  },
  currency_mismatch: {
    status: 409,
    title: 'The currency does not match the transaction',
    cause: "The currency sent differs from the transaction's or the authorization's.",
    fix: "Send the transaction's own currency, or leave `currency` out where it is optional.",
  },
  own_credential_not_revocable: {
    status: 409,
    title: 'A credential cannot revoke itself',
    cause: 'The key making the request was the one to revoke.',
    fix: 'Create a new key, switch to it, then revoke the old one with the new key.',
  },
  credential_revoked: {
    status: 409,
    title: 'The credential is revoked',
    cause: 'The credential was revoked before this change.',
    fix: 'Create a new credential instead.',
  },
  not_a_client_id: {
    status: 409,
    title: 'Only a client ID has allowed origins',
    cause: 'Allowed origins were changed on an API key, a branch key or a device.',
    fix: 'Change the allowed origins of the client ID (`ck_…`) your widgets use.',
  },
  payment_method_not_offered: {
    status: 409,
    title: "The merchant's widgets do not offer this payment method",
    cause: "The widget asked to pay with a method the merchant's payment-methods setting does not offer.",
    fix: 'Offer the method in the merchant settings, or leave it out of the widget.',
  },
  idempotency_key_in_use: {
    status: 409,
    title: 'A request with this Idempotency-Key is still running',
    cause: 'An earlier request with the same key has not finished.',
    fix: "Wait a moment and send it again with the same key: you get the first request's answer.",
  },
  payload_too_large: {
    status: 413,
    title: 'The request body is too large',
    cause: "The body is over the endpoint's limit (a receipt over 64 KB, say).",
    fix: 'Send less: trim the receipt or the products.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'The request body must be application/json',
    cause: 'The body was sent with another Content-Type.',
    fix: 'Send `Content-Type: application/json`.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'The Idempotency-Key was used with a different request',
    cause: 'The key was used within 24 hours for a request with another body.',
    fix: 'Use a new key for every new operation; reuse a key only to retry the very same request.',
  },
  messages_unavailable: {
    status: 422,
    title: 'No provider is configured to send this kind of message',
    cause:
      'The transaction asked for a link by SMS (`phone`) or e-mail (`email`), and the production service has no SMS gateway (SMS_WEBHOOK_URL) or SMTP server (SMTP_URL) for it.',
    fix: 'Leave `phone` or `email` out and send the link yourself, or ask the operator to configure the provider.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    cause: 'The credential sent more requests than its limit allows.',
    fix: 'Wait `Retry-After` seconds, then slow down (the merchant client does not retry this one by itself).',
  },
  too_many_declines: {
    status: 429,
    title: 'Too many declined payment attempts',
    cause: 'Too many declined attempts on this link, session or address within the last hour: card testing is suspected, and the processor is not asked.',
    fix: 'Ask the consumer to wait `Retry-After` seconds; do not retry automatically.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    cause: "Something failed on the service's side; nothing about it is in the answer.",
    fix: 'Try again; if it persists, give the operator the `requestId`.',
  },
  processor_failure: {
    status: 502,
    title: 'The payment processor failed',
    cause: 'The processor could not be reached or failed (not a decline); nothing was charged.',
    fix: 'Try again in a moment with the same Idempotency-Key.',
  },
  service_unavailable: {
    status: 503,
    title: 'The service is unavailable',
    cause: 'The service cannot take the request right now (an instance shutting down, a capacity limit).',
    fix: 'Try again after `Retry-After` seconds (the merchant client does so by itself).',
  },
  database_unavailable: {
    status: 503,
    title: 'The database is unavailable; retry after Retry-After seconds',
    cause: "The service's database did not answer; nothing was changed.",
    fix: 'Try again after `Retry-After` seconds with the same Idempotency-Key (the merchant client does so by itself).',
  },
} as const satisfies Record<string, ApiErrorEntry>;

export type ApiErrorCode = keyof typeof API_ERRORS;
export const API_ERROR_CODES = Object.keys(API_ERRORS) as [ApiErrorCode, ...ApiErrorCode[]];
export const ApiErrorCodeSchema = z.enum(API_ERROR_CODES);
