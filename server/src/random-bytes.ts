import { randomBytes as cryptoRandomBytes, randomFillSync } from 'node:crypto';

const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

/**
 * `size` bytes from the CSPRNG, drawn from a pool refilled 4 KB at a time, as node's own `randomUUID` does: a call of
 * `crypto.randomBytes` for a few bytes costs far more than the bytes, and a payment draws several identifiers
 * (bench/findings.md). Every byte is handed out once, as a copy, and wiped from the pool.
 */
export function randomBytes(size: number): Buffer {
  if (size > POOL_SIZE) return cryptoRandomBytes(size);
  if (offset + size > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size));
  pool.fill(0, offset, offset + size);
  offset += size;
  return bytes;
}
