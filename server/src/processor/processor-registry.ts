import type { PaymentProcessor } from './processor';

/**
 * Which processor each merchant's payments go to: the merchant's own account where it connected one
 * (`PUT /merchant/processor`, `svc processor connect`), else the default account (PROCESSOR).
 */
export interface ProcessorRegistry {
  forMerchant(merchantId: string): Promise<PaymentProcessor>;
}

/** The processor of `merchantId`: from the registry when the service has one, else the one processor it was given. */
export function processorOf(deps: { processor: PaymentProcessor; processors?: ProcessorRegistry | undefined }, merchantId: string): Promise<PaymentProcessor> {
  return deps.processors ? deps.processors.forMerchant(merchantId) : Promise.resolve(deps.processor);
}
