import type { Queryable } from '../db/client';
import type { Env } from '../env';
import { MerchantProcessors, ProcessorAccountCache } from '../modules/processor-accounts';
import type { PaymentProcessor } from '../processor/processor';
import type { ProcessorRegistry } from '../processor/processor-registry';

/**
 * Each merchant's processor for a test app, as main.ts makes it: built on first use, since it needs the test database,
 * which exists once the harness has started. Its accounts are kept for five minutes and no listener tells it of
 * changes: what it sees of a change is its own forgetting. The caller's transaction is passed on, as
 * processorOf(deps, merchantId, tx) hands it: never a second connection.
 */
export function testMerchantProcessors(of: () => { db: Queryable; env: Env }, defaultProcessor: PaymentProcessor): ProcessorRegistry {
  let registry: MerchantProcessors | null = null;
  return {
    forMerchant: (merchantId, db) => {
      registry ??= new MerchantProcessors({ ...of(), defaultProcessor, accounts: new ProcessorAccountCache(300_000) });
      return registry.forMerchant(merchantId, db);
    },
    forget: (merchantId) => registry?.forget(merchantId),
  };
}
