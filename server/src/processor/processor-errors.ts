import { ApiError } from '../errors';
import type { Failure, Refusal } from './processor';

/** A processor's refusal as the API error the caller sees. */
export function processorError(result: Refusal | Failure): ApiError {
  if (result.outcome === 'declined') {
    return result.code === 'insufficient_funds'
      ? new ApiError('insufficient_funds', 'The card has insufficient funds; ask the customer for another payment method.')
      : new ApiError('card_declined', 'The card was declined; ask the customer for another payment method.');
  }
  return new ApiError('processor_failure', `The ${result.processor} processor failed; retry later (with the same Idempotency-Key).`);
}
