import type { Queryable } from '../db/client';
import type { PaymentProcessor } from './processor';

/**
 * Which processor each merchant's payments go to: the merchant's own account where it connected one
 * (`PUT /merchant/processor`, `svc processor connect`), else the default account (PROCESSOR).
 */
export interface ProcessorRegistry {
  /** Reads the merchant's account through `db`: the caller's open transaction when it holds one (never a second connection). */
  forMerchant(merchantId: string, db?: Queryable): Promise<PaymentProcessor>;
  /**
   * This instance committed a change to the merchant's account: its next payment must use the new one at once.
   * (Other instances forget it when the trigger's notice reaches them.)
   */
  forget(merchantId: string): void;
}

/** The processor of `merchantId`: from the registry when the service has one, else the one processor it was given. */
export function processorOf(
  deps: { processor: PaymentProcessor; processors?: ProcessorRegistry | undefined },
  merchantId: string,
  db?: Queryable,
): Promise<PaymentProcessor> {
  // A caller inside a transaction passes it: asking the pool for another connection while holding one deadlocks once
  // every connection is held by a transaction waiting the same way.
  return deps.processors ? deps.processors.forMerchant(merchantId, db) : Promise.resolve(deps.processor);
}
