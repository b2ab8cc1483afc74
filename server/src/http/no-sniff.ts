import type { RequestHandler } from 'express';

/** Every answer is what its Content-Type says: browsers must not sniff JSON or problem+json into something runnable. */
export const noSniff: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};
