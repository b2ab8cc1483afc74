import type { RequestHandler } from 'express';

/**
 * CORS for the /sdk endpoints, which merchant pages call from their own origin. A preflight cannot carry the
 * client ID, so it is answered for any origin; the request itself is then checked against the client ID's
 * allowed origins (403 origin_not_allowed). No credentials (cookies) are ever involved.
 */
export const sdkCors: RequestHandler = (req, res, next) => {
  const origin = req.get('origin');
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', 'X-Request-Id, Idempotent-Replayed, Retry-After');
  }
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization, Idempotency-Key, X-Request-Id');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
};
