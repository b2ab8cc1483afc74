import { describe, expect, it } from 'vitest';
import { stripeDecline } from './stripe-declines';

describe("Stripe's declines as the service's codes", () => {
  it.each([
    ['card_declined', 'insufficient_funds', 'insufficient_funds', 'insufficient_funds'],
    ['card_declined', 'generic_decline', 'card_declined', 'generic_decline'],
    ['expired_card', undefined, 'expired_card', 'expired_card'],
    ['incorrect_cvc', '', 'incorrect_cvc', 'incorrect_cvc'],
    ['payment_intent_authentication_failure', null, 'authentication_failed', 'payment_intent_authentication_failure'],
    ['card_declined', 'something_new', 'card_declined', 'something_new'],
  ])('code %s with decline_code %s reads %s, keeping %s', (code, declineCode, service, processorCode) => {
    expect(stripeDecline(code, declineCode)).toEqual({ code: service, processorCode });
  });
});
