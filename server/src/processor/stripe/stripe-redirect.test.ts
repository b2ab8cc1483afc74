import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StripeProcessor } from './stripe-processor';

/**
 * What localstripe cannot show: Stripe names the bank's page only for a confirmation that carried a `return_url`. A
 * double of the few answers Stripe gives a card that needs the bank (an intent in `requires_action` with an action
 * for Stripe.js, then, confirmed again with a `return_url`, its `redirect_to_url`), in the shapes of Stripe's API
 * reference.
 */
const API = 'https://api.stripe.test';
const HOOKS_PAGE = 'https://hooks.stripe.com/3d_secure_2/hosted?merchant=acct_1&payment_intent=pi_3ds&publishable_key=pk_test_1';
const confirmations: URLSearchParams[] = [];
const intent = (fields: Record<string, unknown>) => ({
  id: 'pi_3ds',
  object: 'payment_intent',
  amount: 1_000,
  currency: 'usd',
  metadata: { requestKey: 'prq_redirect' },
  ...fields,
});

const server = setupServer(
  http.post(`${API}/v1/payment_methods`, () => HttpResponse.json({ id: 'pm_1', object: 'payment_method', card: { brand: 'visa', last4: '3184' } })),
  http.post(`${API}/v1/customers`, () => HttpResponse.json({ id: 'cus_1', object: 'customer' })),
  http.post(`${API}/v1/payment_methods/pm_1/attach`, () => HttpResponse.json({ id: 'pm_1', object: 'payment_method', customer: 'cus_1' })),
  http.post(`${API}/v1/payment_intents`, () =>
    HttpResponse.json(intent({ status: 'requires_action', next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'stripe_3ds2_fingerprint' } } })),
  ),
  http.post(`${API}/v1/payment_intents/pi_3ds/confirm`, async ({ request }) => {
    const form = new URLSearchParams(await request.text());
    confirmations.push(form);
    return HttpResponse.json(
      intent({ status: 'requires_action', next_action: { type: 'redirect_to_url', redirect_to_url: { url: HOOKS_PAGE, return_url: form.get('return_url') } } }),
    );
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe("the Stripe connector's bank page", () => {
  it("confirms the intent again with the payment's return URL, and answers Stripe's redirect_to_url", async () => {
    const stripe = new StripeProcessor({ secretKey: 'sk_test_redirect', apiBase: API, serviceBaseUrl: 'https://pay.example.com' });
    const card = { number: '4000002760003184', expMonth: 12, expYear: 2034, cvc: '123' };
    const asked = await stripe.sale({ method: 'card', card }, 1_000, 'USD', 'prq_redirect', { transactionNumber: 'T1', installments: 1 });
    expect(asked).toEqual({ outcome: 'requires_action', processor: 'stripe', reference: 'pi_3ds', actionUrl: HOOKS_PAGE });
    expect(confirmations.map((form) => form.get('return_url'))).toEqual(['https://pay.example.com/authentication-returns/prq_redirect']);
  });
});
