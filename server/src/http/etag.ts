import { createHash } from 'node:crypto';

/**
 * A strong ETag for a body: the first 27 characters of its SHA-256 in base64url. express's own is off (app.ts: it
 * would hash every API answer); the GETs a client may revalidate (docs, the SDK manifest and files, the consumer
 * pages' assets, a link's QR code) set this one, and express answers 304 when the request's If-None-Match has it.
 */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}
