import type { RequestHandler } from 'express';
import type { Logger } from '../logger';
import { requestIdOf } from './request-id';
import { routePatternOf } from './route-pattern';

/**
 * One structured line per request: method, route, status, duration. The route is the pattern as the metrics label
 * it (`/pay/{linkId}`, routePatternOf), never the concrete path or query: link ids, commit ids and query strings are
 * credentials.
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
          route: routePatternOf(req, res),
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
