import type { Queryable } from '../../db/client';
import { ForgettingCache, forgetOnNotice } from '../../db/forgetting-cache';
import type { Listener } from '../../db/resilient-listener';
import { findProcessorAccountAsSeen, type ProcessorAccountRow } from './processor-accounts.queries';

/** The channel a trigger on processor_accounts announces changed accounts on, with the merchant's id (migration 0025). */
export const PROCESSOR_ACCOUNTS_CHANNEL = 'svc_processor_accounts';

const MERCHANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Each merchant's processor account row, and "none" for the many merchants without one, kept for `ttlMs` so that a
 * payment's steps do not each read it (every one that asks for the merchant's processor did: six a lifecycle).
 *
 * An account that changes (connected, replaced, removed, by any instance, the CLI or by hand in SQL) is forgotten at
 * once on every instance: a trigger announces the merchant on PROCESSOR_ACCOUNTS_CHANNEL at commit and each
 * instance's listener calls `forget`; the instance that saved it also forgets it itself after the commit, so its own
 * next payment never waits for the notice. Should the listener lose its connection, `clear()` on reconnect drops
 * everything; in between, `ttlMs` bounds how long another instance may still use the old account. `ttlMs` 0 turns
 * the cache off.
 *
 * What a transaction that changed an account itself reads is never kept: it may be rolled back, and no notice
 * would then come to undo it.
 */
export class ProcessorAccountCache extends ForgettingCache<ProcessorAccountRow | null> {
  /** The merchant's account (null: none), read through `db` (the caller's transaction, when it holds one) unless kept. */
  find(db: Queryable, merchantId: string): Promise<ProcessorAccountRow | null> {
    return this.get(merchantId.toLowerCase(), async () => {
      const { account, changedHere } = await findProcessorAccountAsSeen(db, merchantId);
      return { value: account, keep: !changedHere };
    });
  }

  /** The merchant's account changed: read it again next time. */
  override forget(merchantId: string): void {
    super.forget(merchantId.toLowerCase());
  }
}

/**
 * Makes `cache` forget each merchant's account a trigger announces as changed, and everything after the listener's
 * connection was lost (announcements made meanwhile are gone). Resolves once it listens.
 */
export function forgetChangedProcessorAccounts(listener: Listener, cache: ProcessorAccountCache): Promise<{ unlisten(): Promise<unknown> }> {
  // Anything but a merchant's id (a TRUNCATE announces `*`): forget everything rather than keep a changed account.
  return forgetOnNotice(listener, PROCESSOR_ACCOUNTS_CHANNEL, cache, (payload) => (MERCHANT_ID.test(payload) ? payload : null));
}
