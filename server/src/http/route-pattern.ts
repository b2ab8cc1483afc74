import type { Request, Response } from 'express';

/** Set by the endpoint router: the path template of the endpoint that answered (`/pay/{linkId}`). */
const ROUTE_PATTERN = Symbol('routePattern');

type Noted = Response & { [ROUTE_PATTERN]?: string };

/** Records the route pattern that serves `res`, for metrics labels and span names. */
export function noteRoutePattern(res: Response, pattern: string): void {
  (res as Noted)[ROUTE_PATTERN] = pattern;
}

/**
 * The route pattern that answered: the endpoint's path template, or the Express route's path; a 404 is `unmatched`
 * and anything else without a route `other`. Never the path itself, which carries a transaction number or a link id.
 */
export function routePatternOf(req: Request, res: Response): string {
  const pattern = (res as Noted)[ROUTE_PATTERN];
  if (pattern) return pattern;
  if (res.statusCode === 404) return 'unmatched';
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? path : 'other';
}
