import type { Queryable } from '../db/client';
import { ForgettingCache, forgetOnNotice } from '../db/forgetting-cache';
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
export class CredentialCache extends ForgettingCache<CredentialRow | null> {
  find(db: Queryable, secretHash: Buffer): Promise<CredentialRow | null> {
    return this.get(secretHash.toString('hex'), async () => {
      const row = await findCredentialByHash(db, secretHash);
      return { value: row, keep: row !== null };
    });
  }

  /** The credential with this hash (hex, as the trigger sends it) changed: read it again next time. */
  override forget(secretHashHex: string): void {
    super.forget(secretHashHex.toLowerCase());
  }
}

/**
 * Makes `cache` forget each credential a trigger announces as changed, and everything after the listener's
 * connection was lost (announcements made meanwhile are gone). Resolves once it listens.
 */
export function forgetChangedCredentials(listener: Listener, cache: CredentialCache): Promise<{ unlisten(): Promise<unknown> }> {
  // Something unexpected on the channel: forget everything rather than keep a changed credential.
  return forgetOnNotice(listener, CREDENTIALS_CHANNEL, cache, (payload) => parseCredentialChange(payload)?.hashHex ?? null);
}
