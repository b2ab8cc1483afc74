import type { RequestHandler } from 'express';
import { routePatternOf } from '../http/route-pattern';
import type { ServiceMetrics } from './metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Counts and times every answered request by method, route pattern (routePatternOf) and status. */
export function httpMetrics(metrics: ServiceMetrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const labels = { method: METHODS.has(req.method) ? req.method : 'OTHER', route: routePatternOf(req, res), status: String(res.statusCode) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
