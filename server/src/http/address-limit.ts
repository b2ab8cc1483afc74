import type { Request, RequestHandler } from 'express';
import { ApiError } from '../errors';
import type { RateLimiter } from './rate-limit';

/** 429 `rate_limited` with Retry-After. */
export function rateLimitedError(retryAfterS: number): ApiError {
  return new ApiError('rate_limited', `Slow down: retry after ${retryAfterS} s.`, { headers: { 'Retry-After': String(retryAfterS) } });
}

/** The bucket key of the caller's address within `scope` (`addr` for failed authentication, `consumer`, `sdk`). */
export function addressKey(scope: string, req: Pick<Request, 'ip'>): string {
  return `${scope}:${req.ip ?? 'unknown'}`;
}

/**
 * The one per-address limit for callers that have no credential yet (a consumer on a payment link, a widget
 * starting a session): each address gets a bucket of its own in `scope`, which also slows card testing.
 */
export function perAddressLimit(limiter: RateLimiter, scope: string): RequestHandler {
  return (req, _res, next) => {
    const verdict = limiter.take(addressKey(scope, req));
    if (!verdict.allowed) throw rateLimitedError(verdict.retryAfterS);
    next();
  };
}
