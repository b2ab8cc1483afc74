import type { PaymentDeclineCode } from '../processor';

/**
 * How Stripe's decline codes read as the service's (a card error's `decline_code`, else its `code`); any other decline
 * is `card_declined`. The Stripe code is kept beside the service's as the refusal's `processorCode`. `/docs/errors`
 * lists this table.
 */
export const STRIPE_DECLINES: Readonly<Record<string, PaymentDeclineCode>> = {
  card_declined: 'card_declined',
  generic_decline: 'card_declined',
  do_not_honor: 'card_declined',
  lost_card: 'card_declined',
  stolen_card: 'card_declined',
  fraudulent: 'card_declined',
  insufficient_funds: 'insufficient_funds',
  card_velocity_exceeded: 'insufficient_funds',
  expired_card: 'expired_card',
  incorrect_cvc: 'incorrect_cvc',
  invalid_cvc: 'incorrect_cvc',
  authentication_required: 'authentication_failed',
  payment_intent_authentication_failure: 'authentication_failed',
};

/** The service's code for a Stripe decline, and the Stripe code kept beside it. */
export function stripeDecline(code: string | null | undefined, declineCode: string | null | undefined): { code: PaymentDeclineCode; processorCode: string } {
  // An absent code may come as an empty string.
  const processorCode = declineCode || code || 'card_declined';
  return { code: STRIPE_DECLINES[processorCode] ?? STRIPE_DECLINES[code || ''] ?? 'card_declined', processorCode };
}
