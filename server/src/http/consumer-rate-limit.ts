import type { RequestHandler } from 'express';
import { rateLimitedError } from './authenticate';
import type { RateLimiter } from './rate-limit';

/**
 * Consumers (payment links, stickers) have no credential: their address gets a bucket, which also slows card testing
 * and link guessing through the public pages.
 */
export function perConsumerAddress(limiter: RateLimiter): RequestHandler {
  return (req, _res, next) => {
    const verdict = limiter.take(`consumer:${req.ip ?? 'unknown'}`);
    if (!verdict.allowed) throw rateLimitedError(verdict.retryAfterS);
    next();
  };
}
