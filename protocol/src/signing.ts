/**
 * Callback signatures (docs/integrating.md#verifying-a-callback), with WebCrypto so the same code runs in Node and in browsers.
 *
 * - The spec's scheme: `HMAC-Authorization` = lowercase hex of HMAC-SHA256, keyed with the whole secret string
 *   (its UTF-8 bytes, `whsec_` included), over `HMAC-Random-Key` + the raw body (empty for GET callbacks).
 * - Standard Webhooks: `webhook-signature` = `v1,` + base64 of HMAC-SHA256 keyed with the base64-decoded part of
 *   the secret after `whsec_`, over `${webhook-id}.${webhook-timestamp}.${body}`.
 *
 * While a rolled secret's overlap lasts, both secrets sign: `webhook-signature` carries one `v1,` entry per secret (the
 * Standard Webhooks way to rotate), `HMAC-Authorization` stays signed with the previous secret (a merchant still
 * verifying with it notices nothing) and `HMAC-Authorization-Next` carries the new secret's signature.
 *
 * Verifiers work on the raw body bytes as received (never on re-serialised JSON), compare in constant time
 * (crypto.subtle.verify), and answer false, never throw, for malformed or wrong-length signatures.
 */

const encoder = new TextEncoder();

export const SIGNATURE_HEADERS = {
  randomKey: 'hmac-random-key',
  authorization: 'hmac-authorization',
  /** Only while a rolled secret's overlap lasts: the spec's signature by the new secret. */
  authorizationNext: 'hmac-authorization-next',
  webhookId: 'webhook-id',
  webhookTimestamp: 'webhook-timestamp',
  webhookSignature: 'webhook-signature',
} as const;

/** Seconds a Standard Webhooks timestamp may differ from now (the libraries' default). */
export const DEFAULT_TOLERANCE_S = 300;

type Body = string | Uint8Array;

function bytesOf(body: Body): Uint8Array {
  return typeof body === 'string' ? encoder.encode(body) : body;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Imported keys by usage and key bytes: a sender signs every attempt of a merchant with the same secret. The same
 * bytes are the same HMAC key whichever scheme derived them.
 */
const importedKeys = new Map<string, Promise<CryptoKey>>();
const MAX_IMPORTED_KEYS = 256;

/** The HMAC-SHA256 key of `raw`, imported once per usage and key (the oldest forgotten past 256). */
function hmacKey(raw: Uint8Array, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  const id = `${usage}:${toHex(raw)}`;
  let key = importedKeys.get(id);
  if (!key) {
    key = crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
    // A failed import is not kept: the next call tries again.
    key.catch(() => importedKeys.delete(id));
    importedKeys.set(id, key);
    if (importedKeys.size > MAX_IMPORTED_KEYS) importedKeys.delete(importedKeys.keys().next().value as string);
  }
  return key;
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function fromHex(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  out.forEach((_, i) => (out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)));
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

function fromBase64(text: string): Uint8Array | null {
  let raw: string;
  try {
    raw = atob(text);
  } catch {
    return null;
  }
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** The key bytes of a `whsec_` secret for Standard Webhooks (the base64 after the prefix). */
export function standardWebhookKey(secret: string): Uint8Array | null {
  return fromBase64(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
}

/** 32 lowercase hex characters, new for every attempt. */
export function newRandomKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return toHex(bytes);
}

export async function signSpecHmac(secret: string, randomKey: string, body: Body): Promise<string> {
  const key = await hmacKey(encoder.encode(secret), 'sign');
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', key, concat(encoder.encode(randomKey), bytesOf(body)) as BufferSource)));
}

export async function verifySpecHmac(secret: string, randomKey: string, signature: string, body: Body): Promise<boolean> {
  const expected = fromHex(signature.trim());
  // crypto.subtle.verify answers false for a signature of the wrong length.
  if (!expected || !/^[0-9a-f]{32}$/.test(randomKey)) return false;
  const key = await hmacKey(encoder.encode(secret), 'verify');
  return crypto.subtle.verify('HMAC', key, expected as BufferSource, concat(encoder.encode(randomKey), bytesOf(body)) as BufferSource);
}

export async function signStandardWebhook(secret: string, id: string, timestampS: number, body: Body): Promise<string> {
  const raw = standardWebhookKey(secret);
  if (!raw) throw new Error('the secret is not whsec_ followed by base64');
  const key = await hmacKey(raw, 'sign');
  const signed = concat(encoder.encode(`${id}.${timestampS}.`), bytesOf(body));
  return `v1,${toBase64(new Uint8Array(await crypto.subtle.sign('HMAC', key, signed as BufferSource)))}`;
}

/**
 * Checks a Standard Webhooks signature header (space-separated `v1,<base64>` entries; any one may match) and
 * that the timestamp is within `toleranceS` of `nowS`.
 */
export async function verifyStandardWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: Body,
  { nowS = Math.floor(Date.now() / 1000), toleranceS = DEFAULT_TOLERANCE_S }: { nowS?: number; toleranceS?: number } = {},
): Promise<boolean> {
  const timestamp = Number(headers.timestamp);
  if (!/^\d+$/.test(headers.timestamp) || Math.abs(nowS - timestamp) > toleranceS) return false;
  const raw = standardWebhookKey(secret);
  if (!raw) return false;
  const key = await hmacKey(raw, 'verify');
  const signed = concat(encoder.encode(`${headers.id}.${headers.timestamp}.`), bytesOf(body));
  for (const entry of headers.signature.split(' ')) {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const candidate = fromBase64(value);
    // crypto.subtle.verify answers false for a signature of the wrong length.
    if (candidate && (await crypto.subtle.verify('HMAC', key, candidate as BufferSource, signed as BufferSource))) return true;
  }
  return false;
}

export interface CallbackSignatureHeaders {
  'HMAC-Random-Key': string;
  'HMAC-Authorization': string;
  /** Only while a rolled secret's overlap lasts: `HMAC-Authorization` by the new secret. */
  'HMAC-Authorization-Next'?: string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The secrets that sign a callback: the merchant's secret and, while a roll's overlap lasts, the one before it. */
export interface SigningSecrets {
  secret: string;
  previousSecret: string | null;
}

/**
 * Every signature header of one attempt. With a previous secret (a roll's overlap): `HMAC-Authorization` by the
 * previous secret, `HMAC-Authorization-Next` by the new one, and `webhook-signature` with an entry by each.
 */
export async function signCallback(
  secrets: string | SigningSecrets,
  eventId: string,
  body: Body,
  timestampS: number,
  randomKey = newRandomKey(),
): Promise<CallbackSignatureHeaders> {
  const { secret, previousSecret } = typeof secrets === 'string' ? { secret: secrets, previousSecret: null } : secrets;
  const standard = await signStandardWebhook(secret, eventId, timestampS, body);
  const common = { 'HMAC-Random-Key': randomKey, 'webhook-id': eventId, 'webhook-timestamp': String(timestampS) };
  if (previousSecret === null) {
    return { ...common, 'HMAC-Authorization': await signSpecHmac(secret, randomKey, body), 'webhook-signature': standard };
  }
  return {
    ...common,
    'HMAC-Authorization': await signSpecHmac(previousSecret, randomKey, body),
    'HMAC-Authorization-Next': await signSpecHmac(secret, randomKey, body),
    'webhook-signature': `${standard} ${await signStandardWebhook(previousSecret, eventId, timestampS, body)}`,
  };
}

/**
 * Verifies a received callback: every signature it carries must verify. The service sends both schemes; the Standard
 * Webhooks one also carries its time, so a callback older (or newer) than `toleranceS` (5 minutes) is refused: a
 * replay. A callback with only the spec's HMAC headers (an integration that strips the others) is checked by those
 * alone, without that protection. While a rolled secret's overlap lasts, the spec's signature verifies when either
 * `HMAC-Authorization` or `HMAC-Authorization-Next` matches, so the previous secret and the new one both verify.
 * `header` is any case-insensitive lookup (a Headers object's get, or a function).
 */
export async function verifyCallback(
  secret: string,
  header: (name: string) => string | null | undefined,
  rawBody: Body,
  options: { nowS?: number; toleranceS?: number } = {},
): Promise<boolean> {
  const randomKey = header(SIGNATURE_HEADERS.randomKey);
  const authorization = header(SIGNATURE_HEADERS.authorization);
  const id = header(SIGNATURE_HEADERS.webhookId);
  const timestamp = header(SIGNATURE_HEADERS.webhookTimestamp);
  const signature = header(SIGNATURE_HEADERS.webhookSignature);
  const spec = Boolean(randomKey && authorization);
  const standard = Boolean(id && timestamp && signature);
  if (!spec && !standard) return false;
  if (standard && !(await verifyStandardWebhook(secret, { id: id!, timestamp: timestamp!, signature: signature! }, rawBody, options))) return false;
  if (!spec) return true;
  if (await verifySpecHmac(secret, randomKey!, authorization!, rawBody)) return true;
  const next = header(SIGNATURE_HEADERS.authorizationNext);
  return Boolean(next) && (await verifySpecHmac(secret, randomKey!, next!, rawBody));
}

/**
 * For merchants' tests (as stripe-node's generateTestHeaderString): the headers a real callback of `body` would
 * carry, so a verifier can be tested without the service.
 */
export function generateTestCallbackHeaders(
  secret: string,
  body: Body,
  options: { eventId?: string; timestampS?: number } = {},
): Promise<CallbackSignatureHeaders> {
  return signCallback(secret, options.eventId ?? `evt_test_${newRandomKey()}`, body, options.timestampS ?? Math.floor(Date.now() / 1000));
}
