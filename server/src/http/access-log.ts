import type { RequestHandler } from 'express';
import type { Logger } from '../logger';
import { requestIdOf } from './request-id';

/**
 * One structured line per request: method, route, status, duration. The route is the pattern
 * (`/pay/:linkId`), never the concrete path or query: link ids, commit ids and query strings are credentials.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      const principal = res.locals.principal as { credentialId?: string; merchantId?: string } | undefined;
      logger.info(
        {
          requestId: requestIdOf(res),
          method: req.method,
          route: routeOf(req),
          status: res.statusCode,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          merchantId: principal?.merchantId,
          credentialId: principal?.credentialId,
        },
        'request',
      );
    });
    next();
  };
}

export function routeOf(req: import('express').Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  return typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : '(unmatched)';
}
