import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { bankPageOf, threeDSecureOf } from './stripe-authentication';

const intent = (next_action: unknown) => ({ id: 'pi_1', status: 'requires_action', next_action }) as unknown as Stripe.PaymentIntent;

describe("the bank's page of a PaymentIntent in requires_action", () => {
  it("is Stripe's redirect_to_url, an https page only", () => {
    const url = 'https://hooks.stripe.com/3d_secure_2/hosted?merchant=acct_1&payment_intent=pi_1';
    expect(bankPageOf(intent({ type: 'redirect_to_url', redirect_to_url: { url, return_url: 'https://pay.example.com/r' } }))).toBe(url);
    expect(bankPageOf(intent({ type: 'redirect_to_url', redirect_to_url: { url: 'http://hooks.stripe.com/x', return_url: null } }))).toBeNull();
    expect(bankPageOf(intent({ type: 'redirect_to_url', redirect_to_url: { url: 'javascript:alert(1)', return_url: null } }))).toBeNull();
  });

  it("is a use_stripe_sdk redirect's page where it names one, and none for an action only Stripe.js takes", () => {
    const page = 'https://hooks.stripe.com/redirect/authenticate/src_1?client_secret=src_client_secret_1';
    expect(bankPageOf(intent({ type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: page } }))).toBe(page);
    // localstripe's simulated bank names no page.
    expect(bankPageOf(intent({ type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: '' } }))).toBeNull();
    expect(bankPageOf(intent({ type: 'use_stripe_sdk', use_stripe_sdk: { type: 'stripe_3ds2_fingerprint' } }))).toBeNull();
    expect(bankPageOf(intent(null))).toBeNull();
  });
});

describe('how the 3-D Secure of an approved intent went', () => {
  const charge = (three_d_secure: unknown) => ({ id: 'ch_1', payment_method_details: { card: { three_d_secure } } }) as unknown as Stripe.Charge;

  it("reads Stripe's charge where it tells it", () => {
    expect(
      threeDSecureOf(charge({ authentication_flow: 'challenge', result: 'authenticated', version: '2.2.0', electronic_commerce_indicator: '05' })),
    ).toEqual({ authenticated: true, flow: 'challenge', version: '2.2.0', eci: '05', liabilityShift: true });
    expect(threeDSecureOf(charge({ authentication_flow: 'frictionless', result: 'attempt_acknowledged', version: '2.1.0' }))).toMatchObject({
      authenticated: false,
      flow: 'frictionless',
      liabilityShift: true,
    });
  });

  it('claims no liability shift where Stripe tells nothing', () => {
    expect(threeDSecureOf('ch_1')).toEqual({ authenticated: true, flow: 'challenge', version: 'unknown', eci: null, liabilityShift: false });
    expect(threeDSecureOf(charge(null))).toMatchObject({ liabilityShift: false });
  });
});
