import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localstripeAvailable, startLocalstripe, type Localstripe } from '../../test/localstripe';
import { portGuarantees } from '../port-guarantees';
import { StripeProcessor } from './stripe-processor';

const available = localstripeAvailable();
const card = (number: string) => ({ method: 'card' as const, card: { number, expMonth: 12, expYear: 2034, cvc: '123' } });
const keyed = () => {
  const key = `prq_${randomUUID().replaceAll('-', '')}`;
  return [key, { transactionNumber: key.slice(4, 16), installments: 1 }] as const;
};

describe.skipIf(!available)('the Stripe connector, on localstripe', () => {
  let localstripe: Localstripe;
  let stripe: StripeProcessor;
  beforeAll(async () => {
    localstripe = await startLocalstripe();
    stripe = new StripeProcessor({ secretKey: 'sk_test_connector', apiBase: localstripe.url });
  }, 30_000);
  afterAll(() => localstripe?.stop());

  portGuarantees('stripe', () => ({
    processor: stripe,
    currency: 'USD',
    cards: { approved: card('4242424242424242').card, declined: card('4000000000000002').card },
  }));

  it('answers a sale with the PaymentIntent as reference, its metadata naming the transaction', async () => {
    const [key, details] = keyed();
    const sale = await stripe.sale(card('4242424242424242'), 1_999, 'EUR', key, details);
    expect(sale).toMatchObject({
      outcome: 'approved',
      processor: 'stripe',
      reference: expect.stringMatching(/^pi_/),
      lastFourDigits: '4242',
      paymentMethodName: 'Visa',
    });
    const intent = await fetch(`${localstripe.url}/v1/payment_intents/${(sale as { reference: string }).reference}`, {
      headers: { authorization: 'Bearer sk_test_connector' },
    }).then((r) => r.json() as Promise<{ status: string; amount: number; currency: string; metadata: Record<string, string> }>);
    expect(intent).toMatchObject({
      status: 'succeeded',
      amount: 1_999,
      currency: 'eur',
      metadata: { transactionNumber: details.transactionNumber, requestKey: key },
    });
  });

  it.each(['4000000000000002', '4000000000009995', '4000000000000069', '4000000000000127', '4000000000000341'])(
    'declines the card %s as card_declined, keeping Stripe’s code',
    async (number) => {
      const declined = await stripe.authorize(card(number), 1_000, 'USD', ...keyed());
      expect(declined).toEqual({ outcome: 'declined', processor: 'stripe', code: 'card_declined', processorCode: 'card_declined' });
    },
  );

  it('captures part of a hold once, and gives the rest back', async () => {
    const hold = await stripe.authorize(card('4242424242424242'), 5_000, 'USD', ...keyed());
    if (hold.outcome !== 'approved') throw new Error(`no hold: ${hold.outcome}`);
    const [key] = keyed();
    expect((await stripe.capture(hold.reference, 2_000, 'USD', key)).outcome).toBe('approved');
    // The same capture from a process that lost the answer (a restart): the intent is captured, nothing moves twice.
    const restarted = new StripeProcessor({ secretKey: 'sk_test_connector', apiBase: localstripe.url });
    expect((await restarted.capture(hold.reference, 2_000, 'USD', key)).outcome).toBe('approved');
    const intent = await fetch(`${localstripe.url}/v1/payment_intents/${hold.reference}?expand[]=latest_charge`, {
      headers: { authorization: 'Bearer sk_test_connector' },
    }).then((r) => r.json() as Promise<{ status: string; latest_charge: { amount: number; amount_refunded: number } }>);
    expect(intent.status).toBe('succeeded');
    expect(intent.latest_charge.amount - intent.latest_charge.amount_refunded).toBe(2_000);
  });

  it('voids a hold by cancelling its intent', async () => {
    const hold = await stripe.authorize(card('4242424242424242'), 5_000, 'USD', ...keyed());
    if (hold.outcome !== 'approved') throw new Error(`no hold: ${hold.outcome}`);
    const [key] = keyed();
    await stripe.release(hold.reference, 5_000, key);
    await stripe.release(hold.reference, 5_000, key);
    expect((await stripe.capture(hold.reference, 5_000, 'USD', keyed()[0])).outcome).toBe('failed');
  });

  it('refunds in part, then the rest, each refund once per key with its re_ reference', async () => {
    const sale = await stripe.sale(card('4242424242424242'), 3_000, 'USD', ...keyed());
    if (sale.outcome !== 'approved') throw new Error(`no sale: ${sale.outcome}`);
    const [first] = keyed();
    const part = await stripe.refund(sale.reference, 1_000, first);
    expect(part).toMatchObject({ outcome: 'approved', reference: expect.stringMatching(/^re_/) });
    const restarted = new StripeProcessor({ secretKey: 'sk_test_connector', apiBase: localstripe.url });
    expect(await restarted.refund(sale.reference, 1_000, first)).toEqual(part);
    expect((await stripe.refund(sale.reference, 2_000, keyed()[0])).outcome).toBe('approved');
  });

  it('charges a saved method again from a token (an authorization’s intent, or a verification)', async () => {
    const hold = await stripe.authorize(card('4242424242424242'), 500, 'USD', ...keyed());
    const verified = await stripe.authorize(card('4242424242424242'), 0, 'USD', ...keyed());
    for (const token of [hold, verified]) {
      if (token.outcome !== 'approved') throw new Error(`no token: ${token.outcome}`);
      const charged = await stripe.chargeToken(token.reference, 700, 'USD', keyed()[0]);
      expect(charged).toMatchObject({ outcome: 'approved', reference: expect.stringMatching(/^pi_/) });
    }
  });

  it('asks for the bank on a card that needs it, and completing it answers the same decision every time', async () => {
    const [key, details] = keyed();
    const asked = await stripe.authorize(card('4000002760003184'), 2_500, 'USD', key, details);
    // localstripe simulates the bank without a page of its own.
    expect(asked).toEqual({ outcome: 'requires_action', processor: 'stripe', reference: expect.stringMatching(/^pi_/), actionUrl: null });
    if (asked.outcome !== 'requires_action') throw new Error('no action');
    const intent = await fetch(`${localstripe.url}/v1/payment_intents/${asked.reference}`, { headers: { authorization: 'Bearer sk_test_connector' } }).then(
      (r) => r.json() as Promise<{ client_secret: string }>,
    );
    await fetch(`${localstripe.url}/v1/payment_intents/${asked.reference}/_authenticate?success=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_secret: intent.client_secret, key: 'pk_test_connector' }).toString(),
    });
    const completed = await stripe.completeAuthentication(asked.reference, key);
    expect(completed).toMatchObject({ outcome: 'approved', reference: asked.reference, lastFourDigits: '3184', threeDSecure: { flow: 'challenge' } });
    const restarted = new StripeProcessor({ secretKey: 'sk_test_connector', apiBase: localstripe.url });
    expect(await restarted.completeAuthentication(asked.reference, key)).toEqual(completed);
    // Another request's key never completes this intent.
    expect((await stripe.completeAuthentication(asked.reference, keyed()[0])).outcome).toBe('failed');
  });

  it('reverses a payment still waiting for the bank by cancelling its intent, and refuses its completion afterwards', async () => {
    const [key, details] = keyed();
    const asked = await stripe.sale(card('4000002760003184'), 900, 'USD', key, details);
    if (asked.outcome !== 'requires_action') throw new Error('no action');
    await stripe.reverse(key);
    const intent = await fetch(`${localstripe.url}/v1/payment_intents/${asked.reference}`, { headers: { authorization: 'Bearer sk_test_connector' } }).then(
      (r) => r.json() as Promise<{ status: string }>,
    );
    expect(intent.status).toBe('canceled');
    expect(await stripe.completeAuthentication(asked.reference, key)).toMatchObject({ outcome: 'failed', reason: 'this request was reversed' });
  });

  it('reverses a payment whose answer was lost, found by the key in its metadata', async () => {
    const [key, details] = keyed();
    const sale = await stripe.sale(card('4242424242424242'), 1_500, 'USD', key, details);
    if (sale.outcome !== 'approved') throw new Error(`no sale: ${sale.outcome}`);
    const restarted = new StripeProcessor({ secretKey: 'sk_test_connector', apiBase: localstripe.url });
    await restarted.reverse(key);
    const refunds = await fetch(`${localstripe.url}/v1/refunds?payment_intent=${sale.reference}`, {
      headers: { authorization: 'Bearer sk_test_connector' },
    }).then((r) => r.json() as Promise<{ data: { amount: number }[] }>);
    expect(refunds.data.map((r) => r.amount)).toEqual([1_500]);
  });

  it('finds the payment to reverse among more than a page of intents, and says when it finds none', async () => {
    const others = () =>
      Promise.all(
        Array.from({ length: 110 }, () =>
          fetch(`${localstripe.url}/v1/payment_intents`, {
            method: 'POST',
            headers: { authorization: 'Bearer sk_test_connector', 'content-type': 'application/x-www-form-urlencoded' },
            body: 'amount=100&currency=usd',
          }),
        ),
      );
    // More than a page of other intents on either side, whichever order the list answers in.
    await others();
    const [key, details] = keyed();
    const sale = await stripe.sale(card('4242424242424242'), 1_700, 'USD', key, details);
    if (sale.outcome !== 'approved') throw new Error(`no sale: ${sale.outcome}`);
    await others();
    const restarted = new StripeProcessor({ secretKey: 'sk_test_connector', apiBase: localstripe.url });
    await expect(restarted.reverse(key)).resolves.toBeUndefined();
    const refunds = await fetch(`${localstripe.url}/v1/refunds?payment_intent=${sale.reference}`, {
      headers: { authorization: 'Bearer sk_test_connector' },
    }).then((r) => r.json() as Promise<{ data: { amount: number }[] }>);
    expect(refunds.data.map((r) => r.amount)).toEqual([1_700]);
    await expect(restarted.reverse(keyed()[0])).resolves.toMatchObject({ outcome: 'nothing_found', processor: 'stripe' });
  });
});
