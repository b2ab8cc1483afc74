import type { Request, Response } from 'express';

/** Set by the endpoint router: the path template of the endpoint that answered (`/pay/{linkId}`). */
const ROUTE_PATTERN = Symbol('routePattern');

type Noted = Response & { [ROUTE_PATTERN]?: string };

/** Records the route pattern that serves `res`, for metrics labels, span names and the request log. */
export function noteRoutePattern(res: Response, pattern: string): void {
  (res as Noted)[ROUTE_PATTERN] = pattern;
}

/**
 * The route pattern that answered, in the OpenAPI document's form wherever it is written (metrics labels, span
 * names, the request log): the endpoint's path template (`/transactions/{transactionNumber}`), or the Express route's
 * path written the same way (`/sdk/locales/{file}`); a 404 no route answered is `unmatched`, anything else without a
 * route `other`. Never the path itself, which carries a transaction number or a link id.
 */
export function routePatternOf(req: Request, res: Response): string {
  const pattern = (res as Noted)[ROUTE_PATTERN];
  if (pattern) return pattern;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path}`.replace(/:(\w+)/g, '{$1}');
  return res.statusCode === 404 ? 'unmatched' : 'other';
}
