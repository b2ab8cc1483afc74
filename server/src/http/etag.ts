import type { Request, Response } from 'express';
import { etagOf } from '../entity-tag';

/**
 * Sends `body` with its ETag (`etagOf`), or 304 and no body when the request's If-None-Match is that tag (whatever its
 * Cache-Control says: the client asks because its copy may be stale, and this answers whether it is). Set the
 * content type and the caching headers first. express's own ETag is off (app.ts: it would hash every API answer); the
 * GETs a client may revalidate (docs, the SDK manifest and files, the consumer pages' assets, a link's QR code) send
 * theirs with this.
 */
export function sendTagged(req: Request, res: Response, body: string | Buffer, etag: string = etagOf(body)): void {
  res.setHeader('ETag', etag);
  if (req.get('if-none-match') === etag) {
    res.status(304).end();
    return;
  }
  res.send(body);
}
