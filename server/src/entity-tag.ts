import { createHash } from 'node:crypto';

/**
 * A strong ETag for a body: the first 27 characters of its SHA-256 in base64url. Computed where a body is made (the
 * SDK files once at start, the docs once); http/etag.ts sends it and answers a revalidation.
 */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}
