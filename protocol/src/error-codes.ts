import { z } from 'zod';

/**
 * Every stable error `code` the service answers with, its HTTP status and a short title. Integrators switch on
 * `code`; the title and `detail` are for humans. Adding a code is fine; renaming or removing one breaks merchants.
 */
export const API_ERRORS = {
  validation_failed: { status: 400, title: 'The request is not valid' },
  malformed_json: { status: 400, title: 'The request body is not valid JSON' },
  malformed_request: { status: 400, title: 'The request could not be read' },
  invalid_card: { status: 400, title: 'The card details are not valid' },
  callback_url_not_allowed: { status: 400, title: 'The callback URL is not allowed' },
  unauthorized: { status: 401, title: 'Missing or unknown credentials' },
  card_declined: { status: 402, title: 'The card was declined' },
  insufficient_funds: { status: 402, title: 'The card has insufficient funds' },
  client_id_not_allowed: { status: 403, title: 'A client ID cannot call this endpoint' },
  credential_not_allowed: { status: 403, title: 'This credential cannot call this endpoint' },
  origin_not_allowed: { status: 403, title: 'This origin is not allowed for the client ID' },
  sandbox_only: { status: 403, title: 'This endpoint exists only in sandbox mode' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  transaction_not_cancellable: { status: 409, title: 'The transaction cannot be cancelled' },
  transaction_not_payable: { status: 409, title: 'The transaction cannot be paid' },
  amount_exceeds_available: { status: 409, title: 'The amount exceeds what is still available on the authorization' },
  authorization_not_active: { status: 409, title: 'The authorization is not active' },
  capture_in_flight: { status: 409, title: 'A capture on the authorization is still waiting for the processor' },
  not_an_authorization: { status: 409, title: 'The transaction is not an authorization' },
  no_successful_payment: { status: 409, title: 'The authorization has no successful payment' },
  nothing_to_release: { status: 409, title: 'Nothing is left to release on the authorization' },
  close_auth_unsupported: { status: 409, title: "The authorization's processor does not support closing" },
  not_awaiting_commit: { status: 409, title: 'The transaction is not awaiting a commit' },
  commit_window_expired: { status: 409, title: 'The commit window has expired' },
  amount_exceeds_approved: { status: 409, title: 'The amount exceeds what the consumer approved' },
  currency_mismatch: { status: 409, title: 'The currency does not match the transaction' },
  idempotency_key_in_use: { status: 409, title: 'A request with this Idempotency-Key is still running' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  unsupported_media_type: { status: 415, title: 'The request body must be application/json' },
  idempotency_key_reused: { status: 422, title: 'The Idempotency-Key was used with a different request' },
  messages_unavailable: { status: 422, title: 'The service cannot send this kind of message' },
  rate_limited: { status: 429, title: 'Too many requests' },
  too_many_declines: { status: 429, title: 'Too many declined payment attempts' },
  internal_error: { status: 500, title: 'Internal error' },
  processor_failure: { status: 502, title: 'The payment processor failed' },
  service_unavailable: { status: 503, title: 'The service is unavailable' },
  database_unavailable: { status: 503, title: 'The database is unavailable; retry after Retry-After seconds' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ApiErrorCode = keyof typeof API_ERRORS;
export const API_ERROR_CODES = Object.keys(API_ERRORS) as [ApiErrorCode, ...ApiErrorCode[]];
export const ApiErrorCodeSchema = z.enum(API_ERROR_CODES);
