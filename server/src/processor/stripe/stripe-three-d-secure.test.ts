import { Status, type RequiresAction, type SdkSession, type Transaction } from '@svc/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { cardNumbered, consumerPays } from '../../test/merchant-client';
import { localstripeAvailable, startLocalstripe } from '../../test/localstripe';
import { authenticationReturnUrl } from '../authentication-return';
import { STRIPE_WEBHOOKS_PATH } from '../../modules/processor-webhooks';
import { StripeProcessor } from './stripe-processor';

/**
 * 3-D Secure on the Stripe connector, the whole service against localstripe. localstripe simulates the bank without a
 * page: the consumer's answer at the bank is its `POST /v1/payment_intents/:id/_authenticate` (what its Stripe.js
 * does), and the consumer's return is the service's return URL, as Stripe's redirect would open it. Its webhooks are
 * real ones, sent to the service's `POST /processors/stripe/webhooks` and signed with the endpoint's secret.
 */
const available = localstripeAvailable();
const localstripe = available ? await startLocalstripe() : null;
afterAll(() => localstripe?.stop());
const account = { secretKey: 'sk_test_three_d_secure', apiBase: localstripe?.url ?? 'http://127.0.0.1:9' };
const WEBHOOK_SECRET = 'whsec_three_d_secure_test';

/** Cards localstripe asks the bank for. */
const CHALLENGE = '4000002760003184';
const CHALLENGE_OTHER = '4000000000003220';

const t = useTestApp({
  env: { ...UNTHROTTLED, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
  processor: new StripeProcessor({ ...account, serviceBaseUrl: 'https://pay.example.com' }),
  merchantName: 'Stripe Secure Shop',
  origins: ['https://shop.example.com'],
});

type Intent = { id: string; status: string; client_secret: string; metadata: Record<string, string>; last_payment_error: { code: string } | null };

async function stripe<T>(path: string, form?: Record<string, string>): Promise<T> {
  const res = await fetch(`${account.apiBase}${path}`, {
    method: form ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${account.secretKey}`, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  return (await res.json()) as T;
}

/** The PaymentIntent a transaction's payment made, found as an operator finds it: by its metadata. */
async function intentOf(transactionNumber: string): Promise<Intent> {
  const list = await stripe<{ data: Intent[] }>('/v1/payment_intents?limit=100');
  const intent = list.data.find((i) => i.metadata['transactionNumber'] === transactionNumber);
  if (!intent) throw new Error(`no PaymentIntent for ${transactionNumber}`);
  return intent;
}

/** The consumer at the bank: localstripe's simulated authentication, as its Stripe.js makes it (a publishable key). */
async function bankAnswers(intent: Intent, success: boolean): Promise<void> {
  const res = await fetch(`${account.apiBase}/v1/payment_intents/${intent.id}/_authenticate?success=${success}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_secret: intent.client_secret, key: 'pk_test_three_d_secure' }).toString(),
  });
  if (res.status !== 200) throw new Error(`localstripe refused the authentication: ${res.status}`);
}

/** The consumer's return to the service, as Stripe's redirect opens it (with `payment_intent` and its secret). */
async function consumerReturns(intent: Intent): Promise<Response> {
  const url = new URL(authenticationReturnUrl(t.app.baseUrl, intent.metadata['requestKey']!));
  url.search = new URLSearchParams({ payment_intent: intent.id, payment_intent_client_secret: intent.client_secret }).toString();
  return fetch(url, { redirect: 'manual' });
}

async function linkPaidWith(number: string, methodType: 'sale' | 'authorize' = 'sale') {
  const created = (await t.client.init({ amount: 40, currency: 'USD', methodType })).body;
  const paid = await consumerPays(t.app, created, cardNumbered(number));
  return { created, paid, linkPage: created.transactionPage.qrURL };
}

const transactionOf = async (number: string): Promise<Transaction> => (await t.client.get(number)).body;
/** Every charge Stripe made for the intent. */
const chargesOf = async (intent: Intent) =>
  (await stripe<{ data: { amount: number; payment_intent: string | null }[] }>('/v1/charges?limit=100')).data.filter((c) => c.payment_intent === intent.id);

describe.skipIf(!available)('3-D Secure on the Stripe connector (localstripe)', () => {
  it('a card that needs the bank answers 202 and waits in 15; completed at the bank, the return approves the same intent', async () => {
    const { created, paid, linkPage } = await linkPaidWith(CHALLENGE);
    expect(paid.status).toBe(202);
    expect(paid.body as unknown as RequiresAction).toMatchObject({ status: 'requires_action', action: { type: 'three_d_secure' } });
    expect((await transactionOf(created.TransactionNumber)).status).toBe(Status.AwaitingAuthentication);
    const intent = await intentOf(created.TransactionNumber);
    expect(intent.status).toBe('requires_action');

    await bankAnswers(intent, true);
    const back = await consumerReturns(intent);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(linkPage);

    const after = await transactionOf(created.TransactionNumber);
    expect(after).toMatchObject({ status: Status.Approved, lastDeclineCode: null, confirmation: { acquirer: 'stripe', serviceReferenceId: intent.id } });
    expect(after.confirmation?.threeDSecure).toMatchObject({ authenticated: true, flow: 'challenge' });
    expect((await stripe<Intent>(`/v1/payment_intents/${intent.id}`)).status).toBe('succeeded');
  });

  it('an authorization authenticated at the bank is held at Stripe once the consumer returns', async () => {
    const { created } = await linkPaidWith(CHALLENGE_OTHER, 'authorize');
    const intent = await intentOf(created.TransactionNumber);
    await bankAnswers(intent, true);
    await consumerReturns(intent);
    expect((await transactionOf(created.TransactionNumber)).status).toBe(Status.Authorized);
    expect((await stripe<Intent>(`/v1/payment_intents/${intent.id}`)).status).toBe('requires_capture');
  });

  it('failed at the bank: the return declines authentication_failed with Stripe’s code, and the link may be paid again', async () => {
    const { created } = await linkPaidWith(CHALLENGE);
    const intent = await intentOf(created.TransactionNumber);
    await bankAnswers(intent, false);
    expect((await consumerReturns(intent)).status).toBe(303);
    expect(await transactionOf(created.TransactionNumber)).toMatchObject({
      status: Status.Declined,
      lastDeclineCode: 'authentication_failed',
      lastDeclineProcessorCode: 'payment_intent_authentication_failure',
    });
    expect(await chargesOf(intent)).toEqual([]);
    expect((await consumerPays(t.app, created, cardNumbered('4242424242424242'))).status).toBe(200);
  });

  it('back without answering the bank: declined authentication_failed, and the intent is cancelled so nothing is charged later', async () => {
    const { created } = await linkPaidWith(CHALLENGE);
    const intent = await intentOf(created.TransactionNumber);
    await consumerReturns(intent);
    expect(await transactionOf(created.TransactionNumber)).toMatchObject({ status: Status.Declined, lastDeclineCode: 'authentication_failed' });
    expect((await stripe<Intent>(`/v1/payment_intents/${intent.id}`)).status).toBe('canceled');
  });

  it('Stripe’s webhook before the return completes the payment; the return then changes nothing', async () => {
    const registered = await fetch(`${account.apiBase}/_config/webhooks/service`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ url: `${t.app.baseUrl}${STRIPE_WEBHOOKS_PATH}`, secret: WEBHOOK_SECRET, 'events[]': 'payment_intent.succeeded' }).toString(),
    });
    expect(registered.status).toBe(200);
    const { created, linkPage } = await linkPaidWith(CHALLENGE);
    const intent = await intentOf(created.TransactionNumber);
    await bankAnswers(intent, true);
    // No return yet: Stripe's payment_intent.succeeded alone moves the transaction on.
    await expect.poll(async () => (await transactionOf(created.TransactionNumber)).status, { timeout: 10_000, interval: 50 }).toBe(Status.Approved);
    const back = await consumerReturns(intent);
    expect([back.status, back.headers.get('location')]).toEqual([303, linkPage]);
    const after = await transactionOf(created.TransactionNumber);
    expect(after.payments.map((p) => [p.status, p.amountCents])).toEqual([['succeeded', 4_000]]);
    expect((await chargesOf(intent)).map((c) => c.amount)).toEqual([4_000]);
  });

  it('the return twice charges once', async () => {
    const { created, linkPage } = await linkPaidWith(CHALLENGE);
    const intent = await intentOf(created.TransactionNumber);
    await bankAnswers(intent, true);
    const [first, second] = await Promise.all([consumerReturns(intent), consumerReturns(intent)]);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect([first.headers.get('location'), second.headers.get('location')]).toEqual([linkPage, linkPage]);
    const after = await transactionOf(created.TransactionNumber);
    expect(after.status).toBe(Status.Approved);
    expect(after.payments.map((p) => p.status)).toEqual(['succeeded']);
    expect((await chargesOf(intent)).map((c) => c.amount)).toEqual([4_000]);
  });

  it('in a widget’s dialog the return says the bank is done, framed by the session’s merchant page alone', async () => {
    const session = (await (
      await t.app.request('/sdk/sessions', {
        headers: { origin: 'https://shop.example.com' },
        body: { clientId: t.merchant.clientId, methodType: 'manual_capture', mode: 'sandbox' },
      })
    ).json()) as SdkSession;
    const res = await t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
      headers: { authorization: `Bearer ${session.sessionToken}`, origin: new URL(t.app.env.PUBLIC_BASE_URL).origin },
      body: { method: 'card', card: { number: CHALLENGE, expMonth: 12, expYear: 2099, cvc: '123' }, amount: 1_050, currency: 'USD' },
    });
    expect(res.status).toBe(202);
    const { transactionNumber } = (await res.json()) as RequiresAction;
    const intent = await intentOf(transactionNumber!);
    await bankAnswers(intent, true);
    const back = await consumerReturns(intent);
    expect(back.status).toBe(200);
    expect(back.headers.get('content-security-policy')).toContain("frame-ancestors https://shop.example.com 'self';");
    expect(await back.text()).toContain('<h1>');
    expect((await transactionOf(transactionNumber!)).status).toBe(Status.AwaitingCommit);
  });

  it('an unknown return is the 404 page', async () => {
    const res = await fetch(authenticationReturnUrl(t.app.baseUrl, `prq_${'0'.repeat(32)}`), { redirect: 'manual' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
  });
});
