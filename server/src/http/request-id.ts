import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

const ACCEPTABLE_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Every response carries X-Request-Id: the caller's when it sent a sane one, else a new UUID. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const id = incoming && ACCEPTABLE_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};

export function requestIdOf(res: { locals: Record<string, unknown> }): string {
  return (res.locals.requestId as string | undefined) ?? 'unknown';
}
