import express, { type RequestHandler } from 'express';
import { ApiError, ValidationError } from '../errors';
import { unstorableText } from './storable-text';

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
    const problem = unstorableText(req.body);
    if (problem) return next(new ValidationError([problem]));
    next();
  });
};
