import type { Queryable } from '../../db/client';
import type { Env } from '../../env';
import { connectorFor } from '../../processor/connectors';
import type { PaymentProcessor } from '../../processor/processor';
import type { ProcessorRegistry } from '../../processor/processor-registry';
import { openCredentials } from '../../processor/processor-secrets';
import { ProcessorAccountCache } from './processor-account-cache';

/**
 * Each merchant's processor: its own account where it connected one, else the default. A merchant's connector is
 * built once per connection (its credentials opened then, kept in memory only) and made again when the merchant
 * connects another account.
 *
 * The account rows come from `accounts` (main.ts: kept for PROCESSOR_ACCOUNT_CACHE_S and forgotten when a trigger
 * announces a change); without one, every call reads the merchant's account.
 */
export class MerchantProcessors implements ProcessorRegistry {
  readonly #built = new Map<string, { updatedAt: number; processor: PaymentProcessor }>();
  readonly #accounts: ProcessorAccountCache;

  constructor(
    private readonly deps: {
      db: Queryable;
      env: Env;
      defaultProcessor: PaymentProcessor;
      wrap?: (processor: PaymentProcessor) => PaymentProcessor;
      accounts?: ProcessorAccountCache;
    },
  ) {
    this.#accounts = deps.accounts ?? new ProcessorAccountCache(0);
  }

  async forMerchant(merchantId: string, db: Queryable = this.deps.db): Promise<PaymentProcessor> {
    const account = await this.#accounts.find(db, merchantId);
    if (!account) return this.deps.defaultProcessor;
    const built = this.#built.get(merchantId);
    if (built && built.updatedAt === account.updatedAt.getTime()) return built.processor;
    const key = this.deps.env.PROCESSOR_SECRETS_KEY;
    if (!key) throw new Error(`merchant ${merchantId} has its own processor account, and PROCESSOR_SECRETS_KEY is not set to open it`);
    const connector = connectorFor(account.kind, openCredentials(account.sealedCredentials, key, merchantId), this.deps.env);
    const processor = this.deps.wrap ? this.deps.wrap(connector) : connector;
    this.#built.set(merchantId, { updatedAt: account.updatedAt.getTime(), processor });
    return processor;
  }

  forget(merchantId: string): void {
    this.#accounts.forget(merchantId);
  }
}
