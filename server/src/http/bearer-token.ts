import type { Request } from 'express';

/**
 * The token of `Authorization: Bearer <token>` (up to 200 characters), or null: the session token the widget's own
 * endpoints take (a payment, an authentication's cancel), which the credential middleware does not resolve.
 */
export function bearerToken(req: Pick<Request, 'get'>): string | null {
  const match = /^Bearer\s+(\S{1,200})\s*$/i.exec(req.get('authorization') ?? '');
  return match?.[1] ?? null;
}
