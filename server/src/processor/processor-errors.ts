import { ApiError } from '../errors';
import type { Failure, Refusal } from './processor';

/**
 * What may follow a processor failure: `retry`, the operation may be asked again (under a new Idempotency-Key: the
 * failure is the answer kept under the one it was asked with, which replays it); `final`, the failure ended the
 * payment (a payment link's transaction is Failed and takes no other payment).
 */
export type AfterFailure = 'retry' | 'final';

/** A processor's refusal as the API error the caller sees. */
export function processorError(result: Refusal | Failure, afterFailure: AfterFailure = 'retry'): ApiError {
  if (result.outcome === 'declined') {
    if (result.code === 'refund_declined') {
      return new ApiError(
        'refund_declined',
        `The ${result.processor} processor declined the refund; it is kept as failed and nothing was given back. Refund the customer another way, or contact the acquirer.`,
      );
    }
    return result.code === 'insufficient_funds'
      ? new ApiError('insufficient_funds', 'The card has insufficient funds; ask the customer for another payment method.')
      : new ApiError('card_declined', 'The card was declined; ask the customer for another payment method.');
  }
  if (afterFailure === 'final') {
    return new ApiError('processor_failure', `The ${result.processor} processor failed, which ends this payment; ask the merchant for a new payment link.`);
  }
  return new ApiError(
    'processor_failure',
    `The ${result.processor} processor failed; retry later with a new Idempotency-Key (this one keeps answering this failure).`,
  );
}
