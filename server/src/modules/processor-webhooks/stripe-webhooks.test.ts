import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Status, type ProvisionedMerchant } from '@svc/protocol';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { authentications } from '../../db/schema';
import { createLogger } from '../../logger';
import { provisionTestMerchant } from '../../test/fixtures';
import { useTestApp } from '../../test/harness';
import { cardNumbered, codeOf, consumerPays, merchantClient } from '../../test/merchant-client';
import { STRIPE_WEBHOOKS_PATH } from '.';

const SECRET = 'whsec_test_signing_secret_of_the_account';
const lines: Record<string, unknown>[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const OWN_SECRET = 'whsec_test_signing_secret_of_a_merchants_own_account';
const t = useTestApp({
  env: { STRIPE_WEBHOOK_SECRET: SECRET, PROCESSOR_SECRETS_KEY: randomBytes(32).toString('base64') },
  logger: createLogger({ level: 'info', destination }),
});

const event = (id: string) =>
  JSON.stringify({ id, object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_123', object: 'payment_intent' } } });
const post = (body: string, signature?: string) =>
  t.app.request(STRIPE_WEBHOOKS_PATH, {
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    rawBody: body,
  });
const received = (id: string) => lines.filter((line) => line.code === 'stripe_webhook' && line.eventId === id);

describe('POST /processors/stripe/webhooks', () => {
  it('takes an event signed with the account secret, once however often Stripe sends it', async () => {
    const body = event('evt_once');
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
    for (const _ of [1, 2]) {
      const res = await post(body, signature);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true });
    }
    expect(received('evt_once')).toHaveLength(1);
  });

  it('answers 401 to a bad, foreign or missing signature, and takes nothing', async () => {
    const body = event('evt_forged');
    const foreign = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_someone_else' });
    const tampered = Stripe.webhooks.generateTestHeaderString({ payload: event('evt_other'), secret: SECRET });
    for (const signature of [foreign, tampered, 't=1,v1=00', undefined]) {
      const res = await post(body, signature);
      expect(res.status).toBe(401);
      expect(codeOf(await res.json())).toBe('unauthorized');
    }
    expect(received('evt_forged')).toHaveLength(0);
    expect(JSON.stringify(lines)).not.toContain('pi_123');
  });

  it('refuses a replay of an old signed event (outside the tolerance)', async () => {
    const body = event('evt_old');
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await post(body, signature)).status).toBe(401);
    expect(received('evt_old')).toHaveLength(0);
  });

  it("takes an event signed with a merchant's own Stripe account's secret, and refuses it once that account has another", async () => {
    const connect = (webhookSecret: string) =>
      t.app.request('/merchant/processor', {
        method: 'PUT',
        headers: { authorization: `Bearer ${t.merchant.apiKey}` },
        body: { kind: 'stripe', secretKey: 'sk_test_merchantOwnStripeKey1234', webhookSecret },
      });
    expect((await connect(OWN_SECRET)).status).toBe(200);
    const body = event('evt_own_account');
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: OWN_SECRET });
    const res = await post(body, signature);
    expect(res.status).toBe(200);
    expect(received('evt_own_account')).toEqual([expect.objectContaining({ merchantId: t.merchant.merchantId })]);
    expect(JSON.stringify(lines)).not.toContain(OWN_SECRET);

    expect((await connect('whsec_the_accounts_next_secret')).status).toBe(200);
    const later = event('evt_own_account_old_secret');
    expect((await post(later, Stripe.webhooks.generateTestHeaderString({ payload: later, secret: OWN_SECRET }))).status).toBe(401);
    expect(received('evt_own_account_old_secret')).toHaveLength(0);
  });

  describe("an event that a PaymentIntent left the bank's step", () => {
    /** The sandbox's card that waits for the simulated bank. */
    const CHALLENGE = '4000000000003220';
    const connect = (merchant: ProvisionedMerchant, webhookSecret: string) =>
      t.app.request('/merchant/processor', {
        method: 'PUT',
        headers: { authorization: `Bearer ${merchant.apiKey}` },
        body: { kind: 'stripe', secretKey: 'sk_test_merchantOwnStripeKey1234', webhookSecret },
      });
    /** A payment of `merchant` waiting for the bank, and the event Stripe would send once its intent left that step. */
    async function waiting(merchant: ProvisionedMerchant) {
      const client = merchantClient(t.app, merchant);
      const created = (await client.init({ amount: 25, currency: 'EUR' })).body;
      expect((await consumerPays(t.app, created, cardNumbered(CHALLENGE))).status).toBe(202);
      const [authentication] = await t.database.db.select().from(authentications).where(eq(authentications.merchantId, merchant.merchantId));
      const status = async () => (await client.get(created.TransactionNumber)).body.status;
      const told = (id: string) =>
        JSON.stringify({
          id,
          object: 'event',
          type: 'payment_intent.succeeded',
          data: { object: { id: authentication!.processorReference, object: 'payment_intent', metadata: { requestKey: authentication!.requestKey } } },
        });
      return { status, told };
    }
    const signed = (body: string, secret: string) => Stripe.webhooks.generateTestHeaderString({ payload: body, secret });

    it("is taken from the account the merchant's payments go to, and from no other", async () => {
      const onDefault = await provisionTestMerchant(t.database.db);
      const other = await provisionTestMerchant(t.database.db);
      const otherSecret = 'whsec_test_signing_secret_of_another_merchants_account';
      expect((await connect(other, otherSecret)).status).toBe(200);
      const payment = await waiting(onDefault);

      // Signed by another merchant's own account: the payment still waits.
      const foreign = payment.told('evt_told_by_another_account');
      expect((await post(foreign, signed(foreign, otherSecret))).status).toBe(200);
      expect(await payment.status()).toBe(Status.AwaitingAuthentication);
      const refused = lines.filter((line) => line.code === 'authentication_told_by_other_account');
      expect(refused).toHaveLength(1);
      expect(JSON.stringify(refused)).not.toContain(other.merchantId);
      expect(JSON.stringify(refused)).not.toContain(onDefault.merchantId);

      // Signed by the default account, the merchant's: completed.
      const own = payment.told('evt_told_by_the_default_account');
      expect((await post(own, signed(own, SECRET))).status).toBe(200);
      expect(await payment.status()).toBe(Status.Approved);
    });

    it('is not taken from the default account for a merchant that connected its own', async () => {
      const merchant = await provisionTestMerchant(t.database.db);
      const payment = await waiting(merchant);
      expect((await connect(merchant, 'whsec_test_signing_secret_of_a_later_account')).status).toBe(200);
      const body = payment.told('evt_default_for_an_own_account');
      expect((await post(body, signed(body, SECRET))).status).toBe(200);
      expect(await payment.status()).toBe(Status.AwaitingAuthentication);
    });
  });
});
