import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { principalFromCredential, type Principal } from '../auth/principal';
import type { Database } from '../db/client';
import type { CredentialKind } from '../db/schema';
import { ApiError, UnauthorizedError } from '../errors';
import type { CredentialCache } from './credential-cache';
import { addressKey, rateLimitedError } from './address-limit';
import type { RateLimiter } from './rate-limit';
import { hashCredential, hashesEqual } from '../auth/credential-hash';

export interface AuthenticateDeps {
  db: Database;
  limiter: RateLimiter;
  credentials: CredentialCache;
}

export interface AuthenticateOptions {
  /** Credential kinds this endpoint accepts; the others are refused. */
  allow: readonly CredentialKind[];
}

const MAX_CREDENTIAL_LENGTH = 200;

/**
 * Resolves the caller from `Authorization: Bearer`, the body's `apiKey` (spec compatibility) or the body's
 * `deviceId`. Unknown or malformed credentials get one answer, 401 `unauthorized`, that never says which part was
 * wrong; a known credential of a kind the endpoint does not take, wherever it was sent, is 403
 * `credential_not_allowed` (`client_id_not_allowed` for a client ID).
 */
export function authenticate({ db, limiter, credentials }: AuthenticateDeps, { allow }: AuthenticateOptions): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const failures = addressKey('addr', req);
    if (!limiter.peek(failures)) {
      throw rateLimited(limiter, failures);
    }
    const presented = presentedCredential(req);
    const presentedHash = presented ? hashCredential(presented) : null;
    const row = presentedHash ? await credentials.find(db, presentedHash) : null;
    if (!presentedHash || !row || !hashesEqual(row.secretHash, presentedHash)) {
      // Failed attempts spend the address's budget, so guessing keys is rate limited too.
      limiter.take(failures);
      throw new UnauthorizedError();
    }
    const verdict = limiter.take(`cred:${row.id}`);
    if (!verdict.allowed) throw rateLimitedError(verdict.retryAfterS);
    if (!allow.includes(row.kind)) {
      if (row.kind === 'client') {
        throw new ApiError('client_id_not_allowed', 'A client ID may only call the /sdk endpoints; call this endpoint from your backend with an API key.');
      }
      throw new ApiError(
        'credential_not_allowed',
        `This endpoint does not accept a ${row.kind.replace('_', ' ')}; use ${allow.map((k) => k.replace('_', ' ')).join(' or ')}.`,
      );
    }
    setPrincipal(res, principalFromCredential(row));
    next();
  };
}

/** The credential a request presents (Bearer, or else the body's `apiKey`, or else its `deviceId`), or null. */
export function presentedCredential(req: Request): string | null {
  const header = req.get('authorization');
  const body = (req.body ?? {}) as Record<string, unknown>;
  let value: unknown;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    value = match?.[1];
  } else if (typeof body.apiKey === 'string' && body.apiKey !== '') {
    value = body.apiKey;
  } else if (typeof body.deviceId === 'string') {
    value = body.deviceId;
  }
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CREDENTIAL_LENGTH ? value : null;
}

function rateLimited(limiter: RateLimiter, key: string): ApiError {
  const verdict = limiter.take(key);
  return rateLimitedError(verdict.allowed ? 1 : verdict.retryAfterS);
}

export function setPrincipal(res: Response, principal: Principal): void {
  res.locals.principal = principal;
}

/** The authenticated caller; only call behind `authenticate`. */
export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (!principal) throw new Error('principalOf called on a route without authenticate()');
  return principal;
}
