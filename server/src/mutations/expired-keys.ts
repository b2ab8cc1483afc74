import type { Database } from '../db/client';
import { deleteExpiredKeys } from './idempotency-keys.queries';

/** How many expired keys one statement deletes. */
export const EXPIRED_KEYS_BATCH = 500;

/**
 * Deletes every key (its answer and its fingerprint) that expired by `now`, in bounded batches, and answers how many.
 * An expired key already answers nothing (a request under it runs anew); the expiry worker calls this on every tick.
 */
export async function forgetExpiredKeys(db: Database, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteExpiredKeys(db, now, EXPIRED_KEYS_BATCH);
    total += deleted;
    if (deleted < EXPIRED_KEYS_BATCH) return total;
  }
}
