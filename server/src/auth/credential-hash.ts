import { createHash, timingSafeEqual } from 'node:crypto';

/** A credential as it is stored and looked up: its SHA-256 hash (the credential itself is shown once, never kept). */
export function hashCredential(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison of two hashes. */
export function hashesEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
