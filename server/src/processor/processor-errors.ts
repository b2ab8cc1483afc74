import { ApiError } from '../errors';
import type { Failure, PaymentProcessor, ProcessorCapabilities, Refusal } from './processor';

/**
 * What may follow a processor failure: `retry`, the operation may be asked again (under a new Idempotency-Key: the
 * failure is the answer kept under the one it was asked with, which replays it); `final`, the failure ended the
 * payment (a payment link's transaction is Failed and takes no other payment).
 */
export type AfterFailure = 'retry' | 'final';

const DECLINE_DETAILS: Record<Exclude<Refusal['code'], 'refund_declined'>, string> = {
  card_declined: 'The card was declined; ask the customer for another payment method.',
  insufficient_funds: 'The card has insufficient funds; ask the customer for another payment method.',
  expired_card: 'The card has expired; ask the customer for another card.',
  incorrect_cvc: "The card's security code is incorrect; ask the customer to check it, or for another card.",
  authentication_failed: 'The card holder was not authenticated by the card issuer; ask the customer to try again or use another card.',
};

/** How each capability reads in a refusal and in the capability table. */
export const CAPABILITY_NAMES: Record<keyof ProcessorCapabilities, string> = {
  multipleCaptures: 'several partial captures',
  reauthorize: 're-authorization',
  closeAuth: 'closeAuth (giving back the rest of a hold)',
  refunds: 'refunds',
  wallets: 'wallets (PayPal, Apple Pay, Google Pay)',
  installments: 'installments',
  threeDSecure: '3-D Secure',
  savedCards: 'saved cards (tokenize, and charging a token)',
};

/**
 * Refuses, before anything moves, an operation the merchant's processor cannot do: 409 `processor_unsupported`
 * naming the processor and the capability.
 */
export function requireCapability(processor: Pick<PaymentProcessor, 'kind' | 'capabilities'>, capability: keyof ProcessorCapabilities): void {
  if (!processor.capabilities[capability]) throw capabilityRefusal(processor, capability);
}

/** The 409 `processor_unsupported` of a capability the processor lacks; `why` says what it met, when more than the operation. */
export function capabilityRefusal(processor: Pick<PaymentProcessor, 'kind'>, capability: keyof ProcessorCapabilities, why = ''): ApiError {
  return new ApiError(
    'processor_unsupported',
    `The merchant's ${processor.kind} processor does not support ${CAPABILITY_NAMES[capability]} (capability \`${capability}\`)${why}; nothing was changed.`,
  );
}

/** A processor's refusal as the API error the caller sees. */
export function processorError(result: Refusal | Failure, afterFailure: AfterFailure = 'retry'): ApiError {
  if (result.outcome === 'declined') {
    if (result.code === 'refund_declined') {
      return new ApiError(
        'refund_declined',
        `The ${result.processor} processor declined the refund; it is kept as failed and nothing was given back. Refund the customer another way, or contact the acquirer.`,
      );
    }
    return new ApiError(result.code, DECLINE_DETAILS[result.code]);
  }
  if (afterFailure === 'final') {
    return new ApiError('processor_failure', `The ${result.processor} processor failed, which ends this payment; ask the merchant for a new payment link.`);
  }
  return new ApiError(
    'processor_failure',
    `The ${result.processor} processor failed; retry later with a new Idempotency-Key (this one keeps answering this failure).`,
  );
}
