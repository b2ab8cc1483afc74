import type { PaymentResult, ProcessorResult } from './processor';

/**
 * A payment no consumer can authenticate (a terminal tap, a wallet, a saved card the merchant charges) whose processor
 * still asked for 3-D Secure: a decline `authentication_failed`, since nobody can answer the bank. The processor
 * leaves a payment never completed uncharged; the service reverses it besides where it records the decline.
 */
export function withoutAuthentication(result: PaymentResult): ProcessorResult {
  if (result.outcome !== 'requires_action') return result;
  return { outcome: 'declined', processor: result.processor, code: 'authentication_failed' };
}
