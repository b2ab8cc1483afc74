import express, { type RequestHandler } from 'express';
import { ApiError, ValidationError } from '../errors';

export const BODY_LIMIT = '100kb';

const parseJson = express.json({ limit: BODY_LIMIT, strict: true, type: () => true });

/**
 * Bodies are JSON. A request that carries a body of another content type is refused with 415; a request
 * without a body (cancel, closeAuth) passes with `{}`.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (!hasBody) {
    req.body = {};
    next();
    return;
  }
  if (!req.is('application/json') && !req.is('application/*+json')) {
    next(new ApiError('unsupported_media_type', `Send the body as JSON with "Content-Type: application/json" (got "${req.get('content-type') ?? 'none'}").`));
    return;
  }
  parseJson(req, res, (error?: unknown) => {
    if (error) return next(error);
    // PostgreSQL text cannot hold U+0000: refuse it here, with its path, rather than fail deep in a query.
    const path = pathOfNulCharacter(req.body);
    if (path !== null) return next(new ValidationError([{ path, message: 'must not contain the character U+0000' }]));
    next();
  });
};

function pathOfNulCharacter(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') : null;
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key].join('.');
      const found = pathOfNulCharacter(inner, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}
