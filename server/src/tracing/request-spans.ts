import type { RequestHandler } from 'express';
import { requestIdOf } from '../http/request-id';
import { routePatternOf } from '../http/route-pattern';
import { inSpan } from './tracing';

/**
 * A span per HTTP request, carrying the request id; named by method and route pattern once the answer is sent.
 * Mounted only when tracing is on.
 */
export const requestSpans: RequestHandler = (req, res, next) => {
  void inSpan(`HTTP ${req.method}`, { 'http.request.method': req.method, 'svc.request_id': requestIdOf(res) }, (span) => {
    return new Promise<void>((resolve) => {
      res.once('close', () => {
        const route = routePatternOf(req, res);
        span?.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
        span?.updateName(`HTTP ${req.method} ${route}`);
        resolve();
      });
      next();
    });
  });
};
