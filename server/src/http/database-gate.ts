import type { RequestHandler } from 'express';
import type { DatabaseHealth } from '../db/database-health';
import { DatabaseUnavailableError } from '../errors';

/** While the database is down (DatabaseHealth), a request answers 503 at once rather than wait for a connection. */
export function databaseGate(health: DatabaseHealth): RequestHandler {
  return (_req, _res, next) => {
    next(health.down ? new DatabaseUnavailableError() : undefined);
  };
}
