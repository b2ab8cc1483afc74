import {
  generateTestCallbackHeaders as signTestCallback,
  verifyCallback as verifySignatures,
  type CallbackSignatureHeaders as ProtocolSignatureHeaders,
} from '@svc/protocol';

/**
 * The headers of a callback: a `Headers` object (fetch, Hono, Next.js), Node's `req.headers` (Express, Fastify,
 * node:http), or a function that looks one up by name.
 */
export type CallbackHeaders = Headers | Record<string, string | string[] | undefined> | ((name: string) => string | null | undefined);

export interface VerifyCallbackOptions {
  /** Now, in unix seconds (tests). Default: the clock of this machine. */
  nowS?: number;
  /** How far the `webhook-timestamp` may be from now, in seconds. Default 300. */
  toleranceS?: number;
}

/** The signature headers of one callback attempt (both schemes). */
export interface CallbackSignatureHeaders {
  'HMAC-Random-Key': string;
  'HMAC-Authorization': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

function lookupOf(headers: CallbackHeaders): (name: string) => string | null | undefined {
  if (typeof headers === 'function') return headers;
  if (typeof (headers as Headers).get === 'function') return (name) => (headers as Headers).get(name);
  const byName = new Map<string, string | string[] | undefined>();
  for (const [name, value] of Object.entries(headers)) byName.set(name.toLowerCase(), value);
  return (name) => {
    const value = byName.get(name.toLowerCase());
    return Array.isArray(value) ? value[0] : value;
  };
}

/**
 * Whether a callback really comes from the service: every signature it carries verifies against your `whsec_`
 * secret, and its `webhook-timestamp` is within 5 minutes (an older one is a replay). Pass the raw body exactly as
 * received (a string or bytes; never re-serialised JSON). Answers false, never throws, for a bad or missing signature.
 */
export function verifyCallback(secret: string, headers: CallbackHeaders, rawBody: string | Uint8Array, options: VerifyCallbackOptions = {}): Promise<boolean> {
  return verifySignatures(secret, lookupOf(headers), rawBody, options);
}

/**
 * For your tests: the headers a real callback of `body` would carry, signed with `secret`, so your endpoint's
 * verification can be tested without the service.
 */
export function generateTestCallbackHeaders(
  secret: string,
  body: string | Uint8Array,
  options: { eventId?: string; timestampS?: number } = {},
): Promise<CallbackSignatureHeaders> {
  const headers: Promise<ProtocolSignatureHeaders> = signTestCallback(secret, body, options);
  return headers;
}
