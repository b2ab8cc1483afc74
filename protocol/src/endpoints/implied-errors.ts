import type { EndpointAuth, EndpointDescription } from './description';
import type { ApiErrorCode } from '../error-codes';

/** A JSON body that is not one, too large, of another type, or refused by the endpoint's request schema. */
const BODY_ERRORS: readonly ApiErrorCode[] = ['validation_failed', 'malformed_json', 'malformed_request', 'unsupported_media_type', 'payload_too_large'];

/** Authenticating an API key, a branch key or a device ID: unknown, of a kind the endpoint refuses, or over its rate. */
const CREDENTIAL_ERRORS: readonly ApiErrorCode[] = ['unauthorized', 'client_id_not_allowed', 'credential_not_allowed', 'rate_limited'];

/** What each kind of caller may be refused with before the endpoint's own rules run. */
const AUTH_ERRORS: Record<EndpointAuth, readonly ApiErrorCode[]> = {
  merchant: CREDENTIAL_ERRORS,
  merchant_key: CREDENTIAL_ERRORS,
  device: CREDENTIAL_ERRORS,
  // A client ID unknown, or a page whose origin it does not allow; a session token unknown or used from another page.
  client: ['unauthorized', 'origin_not_allowed'],
  session: ['unauthorized', 'origin_not_allowed'],
  none: [],
};

/** An `Idempotency-Key` still running, or reused with another body. */
const IDEMPOTENCY_ERRORS: readonly ApiErrorCode[] = ['idempotency_key_in_use', 'idempotency_key_reused'];

/** Every endpoint can fail on our side (a 500 problem without detail) or meet a database outage (503 with Retry-After). */
const EVERY_ENDPOINT_ERRORS: readonly ApiErrorCode[] = ['internal_error', 'database_unavailable'];

/**
 * The errors an endpoint's description implies, so its entry never writes them: a JSON body (a POST with a request
 * schema), who may call, an Idempotency-Key, a query or path parameters checked before the handler (a page or an
 * image reads its own link: a bad one is not found, a 404 page for a page, 404 `not_found` for an image), and what
 * every endpoint may meet.
 */
export function impliedErrors(endpoint: EndpointDescription): ApiErrorCode[] {
  const checksParameters = endpoint.query !== undefined || (endpoint.response.contentType === undefined && endpoint.path.includes('{'));
  return [
    ...new Set<ApiErrorCode>([
      ...(endpoint.request && endpoint.method !== 'get' ? BODY_ERRORS : []),
      ...endpoint.auth.flatMap((kind) => AUTH_ERRORS[kind]),
      ...(endpoint.idempotent ? IDEMPOTENCY_ERRORS : []),
      ...(checksParameters ? (['validation_failed'] as const) : []),
      ...EVERY_ENDPOINT_ERRORS,
    ]),
  ];
}

/**
 * Every error an endpoint may answer: what its description implies, then the refusals of its own rules (the entry's
 * `errors`), then what every endpoint may meet. The OpenAPI document and /docs list these.
 */
export function allErrors(endpoint: EndpointDescription): ApiErrorCode[] {
  const implied = impliedErrors(endpoint).filter((code) => !EVERY_ENDPOINT_ERRORS.includes(code));
  return [...new Set<ApiErrorCode>([...implied, ...endpoint.errors, ...EVERY_ENDPOINT_ERRORS])];
}
