import type { IncomingMessage } from 'node:http';
import { principalFromCredential } from '../auth/principal';
import type { Database } from '../db/client';
import type { Env } from '../env';
import { clientAddress, type ProxyTrust } from '../http/client-address';
import type { RateLimiter } from '../http/rate-limit';
import { unstorableText } from '../http/storable-text';
import type { Audience } from './audience';
import { findLinkTransaction } from './realtime.queries';
import type { SessionTokenResolver } from './session-token';
import { hashCredential, hashesEqual } from '../auth/credential-hash';
import { findCredentialByHash } from '../auth/credentials.queries';

/**
 * An accepted upgrade names its audience and, for a browser's socket (`?link=`, `?session=`), what it is capped by:
 * the link or session (`browserSubject`) and the client's address.
 */
export type UpgradeVerdict =
  | { ok: true; audience: Audience; clientAddress: string; browserSubject: string | null }
  | { ok: false; status: 400 | 401 | 403 | 429; reason: string; retryAfterS?: number };

export interface UpgradeAuthDeps {
  db: Database;
  env: Pick<Env, 'PUBLIC_BASE_URL'>;
  /** The proxies trusted to name the client (TRUST_PROXY), as HTTP's `req.ip` takes them. */
  trust: ProxyTrust;
  limiter: RateLimiter;
  resolveSessionToken: SessionTokenResolver;
}

const MAX_CREDENTIAL_LENGTH = 200;
const CREDENTIAL_PARAMS = ['deviceId', 'link', 'session'] as const;

/**
 * Who is opening the socket, from exactly one credential: `Authorization: Bearer` (merchant and branch keys),
 * `?deviceId=` (terminals), `?link=` (the hosted payment page, from the service's own origin) or `?session=`
 * (SDK sessions, from the client ID's allowed origins or the service's own card frame and widget page). Browsers always send `Origin`, so a browser credential
 * without one, or from another site, is refused (403): a page elsewhere cannot ride a consumer's link. Unknown
 * credentials spend the address's rate limit budget, as on the HTTP endpoints; known ones their own.
 */
export async function authenticateUpgrade(req: IncomingMessage, url: URL, deps: UpgradeAuthDeps): Promise<UpgradeVerdict> {
  const { db, env, limiter } = deps;
  const address = clientAddress(req, deps.trust);
  const addressKey = `addr:${address}`;
  if (!limiter.peek(addressKey)) return rateLimited(limiter, addressKey);
  const unknown = (): UpgradeVerdict => {
    limiter.take(addressKey);
    return { ok: false, status: 401, reason: 'unauthorized' };
  };

  const presented = presentedCredential(req, url);
  if (presented === 'ambiguous') return { ok: false, status: 400, reason: 'more than one credential' };
  if (presented === null) return unknown();
  const origin = req.headers.origin;
  const ownOrigin = new URL(env.PUBLIC_BASE_URL).origin;

  let audience: Audience;
  let rateKey: string;
  let browserSubject: string | null = null;
  switch (presented.kind) {
    case 'bearer':
    case 'deviceId': {
      // Terminals and backends send no Origin; a browser page that does must be the service's own (the terminal simulator).
      if (presented.kind === 'deviceId' && origin !== undefined && origin !== ownOrigin) return forbiddenOrigin();
      const row = await findCredentialByHash(db, hashCredential(presented.value));
      if (!row || !hashesEqual(row.secretHash, hashCredential(presented.value))) return unknown();
      const accepted = presented.kind === 'bearer' ? row.kind === 'merchant_key' || row.kind === 'branch_key' : row.kind === 'device';
      if (!accepted) return { ok: false, status: 403, reason: 'credential_not_allowed' };
      audience = { kind: 'credential', principal: principalFromCredential(row) };
      rateKey = `cred:${row.id}`;
      break;
    }
    case 'link': {
      if (origin !== ownOrigin) return forbiddenOrigin();
      const link = await findLinkTransaction(db, presented.value);
      if (!link) return unknown();
      audience = { kind: 'single_transaction', via: 'link', ...link };
      rateKey = `link:${link.transactionId}`;
      browserSubject = rateKey;
      break;
    }
    case 'session': {
      if (origin === undefined) return forbiddenOrigin();
      const grant = await deps.resolveSessionToken(db, presented.value);
      if (!grant) return unknown();
      // The merchant page the session is for, or this service's own pages that hold the token: the card frame and the
      // iframe SDK's widget page, which follow a payment waiting for the shopper's bank (3-D Secure).
      if (origin !== ownOrigin && !grant.allowedOrigins.includes(origin)) return forbiddenOrigin();
      audience = {
        kind: 'single_transaction',
        via: 'session',
        merchantId: grant.merchantId,
        transactionId: grant.transactionId,
        transactionNumber: grant.transactionNumber,
      };
      rateKey = `session:${hashCredential(presented.value).toString('hex')}`;
      browserSubject = rateKey;
      break;
    }
  }
  const verdict = limiter.take(rateKey);
  if (!verdict.allowed) return { ok: false, status: 429, reason: 'rate_limited', retryAfterS: verdict.retryAfterS };
  return { ok: true, audience, clientAddress: address, browserSubject };
}

type Presented = { kind: 'bearer' | (typeof CREDENTIAL_PARAMS)[number]; value: string };

function presentedCredential(req: IncomingMessage, url: URL): Presented | 'ambiguous' | null {
  const found: Presented[] = [];
  const header = req.headers.authorization;
  if (header !== undefined) {
    const value = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!value) return null;
    found.push({ kind: 'bearer', value });
  }
  for (const kind of CREDENTIAL_PARAMS) {
    const values = url.searchParams.getAll(kind);
    if (values.length > 1) return 'ambiguous';
    if (values[0] !== undefined) found.push({ kind, value: values[0] });
  }
  if (found.length > 1) return 'ambiguous';
  const [only] = found;
  // Text the database cannot take (U+0000) is no credential: refused here, before a lookup fails on it.
  return only && only.value.length > 0 && only.value.length <= MAX_CREDENTIAL_LENGTH && unstorableText(only.value) === null ? only : null;
}

function forbiddenOrigin(): UpgradeVerdict {
  return { ok: false, status: 403, reason: 'forbidden_origin' };
}

function rateLimited(limiter: RateLimiter, key: string): UpgradeVerdict {
  const verdict = limiter.take(key);
  return { ok: false, status: 429, reason: 'rate_limited', retryAfterS: verdict.allowed ? 1 : verdict.retryAfterS };
}
