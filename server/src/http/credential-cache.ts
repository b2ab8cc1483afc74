import type { Queryable } from '../db/client';
import type { Listener } from '../db/resilient-listener';
import { findCredentialByHash, type CredentialRow } from '../auth/credentials.queries';

/** The channel a trigger on api_credentials announces changed credentials on (migration 0001). */
export const CREDENTIALS_CHANNEL = 'svc_credentials';

/** What the trigger announces: `<key hash hex> <credential id>`. */
export function parseCredentialChange(payload: string): { hashHex: string; credentialId: string } | null {
  const [hashHex, credentialId] = payload.split(' ');
  return hashHex && credentialId ? { hashHex, credentialId } : null;
}

/**
 * Live credentials by key hash, kept for `ttlMs` so that a merchant's requests do not each read their credential
 * (one statement of the few a request makes). Only found credentials are kept: an unknown key is read every time
 * (failed attempts are rate limited per address), and a key created a moment ago works at once.
 *
 * A credential that changes (revoked, deleted) is forgotten at once on every instance: a trigger announces its
 * hash on CREDENTIALS_CHANNEL at commit and each instance's listener calls `forget`. Should the listener lose its
 * connection, `clear()` on reconnect drops everything; in between, `ttlMs` bounds how long a revoked key may still
 * pass. `ttlMs` 0 turns the cache off.
 */
export class CredentialCache {
  readonly #entries = new Map<string, { row: CredentialRow; expiresAt: number }>();
  /** Bumped by every `forget` and `clear`: a read that started before one must not store what it read. */
  #generation = 0;

  constructor(
    readonly ttlMs: number,
    readonly maxEntries = 10_000,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  async find(db: Queryable, secretHash: Buffer): Promise<CredentialRow | null> {
    if (this.ttlMs <= 0) return findCredentialByHash(db, secretHash);
    const key = secretHash.toString('hex');
    const now = this.nowMs();
    const cached = this.#entries.get(key);
    if (cached && cached.expiresAt > now) return cached.row;
    const generation = this.#generation;
    const row = await findCredentialByHash(db, secretHash);
    if (row && generation === this.#generation) {
      this.#entries.delete(key);
      this.#entries.set(key, { row, expiresAt: now + this.ttlMs });
      if (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
    } else if (!row) {
      this.#entries.delete(key);
    }
    return row;
  }

  /** The credential with this hash (hex, as the trigger sends it) changed: read it again next time. */
  forget(secretHashHex: string): void {
    this.#generation += 1;
    this.#entries.delete(secretHashHex.toLowerCase());
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * Makes `cache` forget each credential a trigger announces as changed, and everything after the listener's
 * connection was lost (announcements made meanwhile are gone). Resolves once it listens.
 */
export async function forgetChangedCredentials(listener: Listener, cache: CredentialCache): Promise<{ unlisten(): Promise<unknown> }> {
  let listening = false;
  return listener.listen(
    CREDENTIALS_CHANNEL,
    (payload) => {
      const change = parseCredentialChange(payload);
      // Something unexpected on the channel: forget everything rather than keep a changed credential.
      if (change) cache.forget(change.hashHex);
      else cache.clear();
    },
    () => {
      if (listening) cache.clear();
      listening = true;
    },
  );
}
