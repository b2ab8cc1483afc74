import { Status, type CommitResponse, type SdkSession, type Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import type { SandboxClock } from '../sandbox/sandbox-clock';
import { startTestApp } from '../../test/app';
import { RecordingProcessor } from '../../test/recording-processor';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { codeOf } from '../../test/merchant-client';

const SHOP = 'https://shop.example.com';
const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' };

const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Widget Shop', origins: [SHOP] });

async function session(methodType: 'manual_capture' | 'authorize' | 'tokenize', origin = SHOP) {
  const res = await t.app.request('/sdk/sessions', { headers: { origin }, body: { clientId: t.merchant.clientId, methodType, mode: 'sandbox' } });
  return { status: res.status, body: (await res.json()) as SdkSession };
}

/** By default as the card frame does: from the service's own origin. */
async function widgetPays(s: SdkSession, body: Record<string, unknown>, origin = new URL(t.app.env.PUBLIC_BASE_URL).origin) {
  const res = await t.app.request(`/sdk/sessions/${s.sessionId}/payments`, { headers: { authorization: `Bearer ${s.sessionToken}`, origin }, body });
  return { status: res.status, body: (await res.json()) as Transaction };
}

const commit = (transactionNumber: string, body: Record<string, unknown>) =>
  t.client.call<CommitResponse>('POST', `/transactions/${transactionNumber}/commit`, body);

/** The commitLink, as the merchant's backend reads it: with its status query (the widget's answer never has it). */
async function commitLinkOf(transactionNumber: string): Promise<URL> {
  const link = (await t.client.get(transactionNumber)).body.paymentCommit.commitLink;
  expect(link).toMatch(/\/transactions\/commitPayment\/cmt_[A-Za-z0-9]{32}$/);
  return new URL(link!);
}

describe('SDK sessions', () => {
  it('start from an allowed origin with the client ID, and answer CORS', async () => {
    const started = await session('manual_capture');
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ paymentMethods: ['card', 'paypal', 'applepay', 'googlepay'] });
    expect(started.body.sessionToken).toMatch(/^sess_/);
    const preflight = await t.app.request('/sdk/sessions', { method: 'OPTIONS', headers: { origin: SHOP, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
  });

  it('refuse an unknown client ID, an origin not on its list, and the wrong mode', async () => {
    const unknown = await t.app.request('/sdk/sessions', {
      headers: { origin: SHOP },
      body: { clientId: 'ck_nope', methodType: 'authorize', mode: 'sandbox' },
    });
    expect(unknown.status).toBe(401);
    const elsewhere = await session('authorize', 'https://evil.example.com');
    expect(elsewhere.status).toBe(403);
    expect(codeOf(elsewhere.body)).toBe('origin_not_allowed');
    const noOrigin = await t.app.request('/sdk/sessions', { body: { clientId: t.merchant.clientId, methodType: 'authorize', mode: 'sandbox' } });
    expect(noOrigin.status).toBe(403);
    const production = await t.app.request('/sdk/sessions', {
      headers: { origin: SHOP },
      body: { clientId: t.merchant.clientId, methodType: 'authorize', mode: 'production' },
    });
    expect(production.status).toBe(400);
    const merchantKeyAsClient = await t.app.request('/sdk/sessions', {
      headers: { origin: SHOP },
      body: { clientId: t.merchant.apiKey, methodType: 'authorize', mode: 'sandbox' },
    });
    expect(merchantKeyAsClient.status).toBe(401);
  });

  it('take payments only with the session token, from the card frame or the session origin', async () => {
    const s = (await session('manual_capture')).body;
    const noToken = await t.app.request(`/sdk/sessions/${s.sessionId}/payments`, { body: { method: 'card', card: CARD, amount: 100, currency: 'USD' } });
    expect(noToken.status).toBe(401);
    const wrongToken = await t.app.request(`/sdk/sessions/${s.sessionId}/payments`, {
      headers: { authorization: 'Bearer sess_wrong' },
      body: { method: 'card', card: CARD, amount: 100, currency: 'USD' },
    });
    expect(wrongToken.status).toBe(401);
    expect((await widgetPays(s, { method: 'card', card: CARD, amount: 100, currency: 'USD' }, 'https://evil.example.com')).status).toBe(403);
    expect((await widgetPays(s, { method: 'paypal', amount: 100, currency: 'USD' }, SHOP)).status).toBe(200);
  });

  it('take card details from the card frame only, never from the merchant page or without an Origin', async () => {
    const s = (await session('manual_capture')).body;
    const fromPage = await widgetPays(s, { method: 'card', card: CARD, amount: 100, currency: 'USD' }, SHOP);
    expect(fromPage.status).toBe(403);
    expect(codeOf(fromPage.body)).toBe('origin_not_allowed');
    const noOrigin = await t.app.request(`/sdk/sessions/${s.sessionId}/payments`, {
      headers: { authorization: `Bearer ${s.sessionToken}` },
      body: { method: 'card', card: CARD, amount: 100, currency: 'USD' },
    });
    expect(noOrigin.status).toBe(403);
    expect((await widgetPays(s, { method: 'card', card: CARD, amount: 100, currency: 'USD' })).status).toBe(200);
  });

  it('expire with their 30 minutes', async () => {
    const s = (await session('manual_capture')).body;
    await t.client.advanceClock(30 * 60 + 1);
    expect((await widgetPays(s, { method: 'card', card: CARD, amount: 100, currency: 'USD' })).status).toBe(401);
  });
});

describe('widget payment → commit', () => {
  it('manual_capture: status 10 with paymentCommit, then the backend commits and it is Approved (0)', async () => {
    const s = (await session('manual_capture')).body;
    const paid = await widgetPays(s, { method: 'card', card: CARD, amount: 2500, currency: 'EUR' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      status: Status.AwaitingCommit,
      statusName: 'AwaitingCommit',
      methodType: 'manual_capture',
      amountCents: 2500,
      currency: 'EUR',
      paymentDetails: null,
    });
    expect(paid.body.paymentCommit).toMatchObject({ isPaymentCommitted: false, secondsToCommit: 600, commitLink: null });
    await commitLinkOf(paid.body.TransactionNumber);

    expect(codeOf((await commit(paid.body.TransactionNumber, { amount: 2501, currency: 'EUR' })).body)).toBe('amount_exceeds_approved');
    expect(codeOf((await commit(paid.body.TransactionNumber, { amount: 2500, currency: 'USD' })).body)).toBe('currency_mismatch');
    const done = await commit(paid.body.TransactionNumber, { amount: 2000, currency: 'EUR', posData: { order: 'A1' } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      success: true,
      transactionNumber: paid.body.TransactionNumber,
      // `status`, as in every answer; `transactionStatus` is its former name, kept as an alias.
      status: Status.Approved,
      transactionStatus: Status.Approved,
      paymentDetails: null,
    });
    expect(done.body.confirmation).toMatchObject({ lastFourDigits: '4242' });
    expect(done.body.transaction).toMatchObject({
      status: Status.Approved,
      amountCents: 2000,
      posData: { order: 'A1' },
      paymentCommit: { isPaymentCommitted: true, messsage: 'Payment committed' },
    });
    expect(done.body.transaction.payments).toMatchObject([{ amountCents: 2000, status: 'succeeded' }]);
    const again = await commit(paid.body.TransactionNumber, { amount: 1, currency: 'EUR' });
    expect(again.status).toBe(409);
    expect(codeOf(again.body)).toBe('not_awaiting_commit');
  });

  it('authorize: the commit places the hold and issues a token that /transactions/pay accepts', async () => {
    const s = (await session('authorize')).body;
    const paid = await widgetPays(s, { method: 'card', card: CARD, amount: 5000, currency: 'USD' });
    const done = await commit(paid.body.TransactionNumber, { amount: 4000, currency: 'USD', methodType: 'authorize' });
    expect(done.body).toMatchObject({ transactionStatus: Status.Authorized, paymentDetails: { type: 'authorization' } });
    expect(done.body.transaction.authorization).toMatchObject({ status: 'active', authorizedCents: 4000, availableCents: 4000 });
    const captured = await t.client.pay({ token: done.body.paymentDetails!.token, amount: 4000 });
    expect(captured.status).toBe(200);
    expect(captured.body.transaction.status).toBe(Status.Captured);
  });

  it('tokenize: the commit issues a reusable token that charges new sales', async () => {
    const s = (await session('tokenize')).body;
    const paid = await widgetPays(s, { method: 'card', card: CARD });
    expect(paid.body.status).toBe(Status.AwaitingCommit);
    const done = await commit(paid.body.TransactionNumber, { amount: 1, currency: 'USD' });
    expect(done.body).toMatchObject({ transactionStatus: Status.Approved, paymentDetails: { type: 'token' } });
    const sale = await t.client.pay({ token: done.body.paymentDetails!.token, amount: 1999, currency: 'CAD' });
    expect(sale.body.transaction).toMatchObject({ status: Status.Approved, methodType: 'sale', amountCents: 1999, currency: 'CAD' });
  });

  it('a commit after the window is refused and the transaction reads Expired (11), swept or not', async () => {
    const s = (await session('manual_capture')).body;
    const first = await widgetPays(s, { method: 'card', card: CARD, amount: 700, currency: 'USD' });
    const second = await widgetPays(s, { method: 'card', card: CARD, amount: 700, currency: 'USD' });
    // Move the clock without the endpoint's sweep for the first, so the commit itself finds the window over.
    await t.database.sql`update sandbox_clock set offset_ms = offset_ms + 601000`;
    await (t.app.clock as SandboxClock).refresh();
    const late = await commit(first.body.TransactionNumber, { amount: 700, currency: 'USD' });
    expect(late.status).toBe(409);
    expect(codeOf(late.body)).toBe('commit_window_expired');
    expect((await t.client.get(first.body.TransactionNumber)).body).toMatchObject({
      status: Status.Expired,
      statusName: 'Expired',
      paymentCommit: { messsage: 'Commit window expired', isPaymentCommitted: false },
    });

    await t.client.advanceClock(1); // the sweep expires the second
    expect((await t.client.get(second.body.TransactionNumber)).body.status).toBe(Status.Expired);
    expect(codeOf((await commit(second.body.TransactionNumber, { amount: 700, currency: 'USD' })).body)).toBe('commit_window_expired');
  });

  it('the commitLink commits what the consumer approved', async () => {
    const s = (await session('manual_capture')).body;
    const paid = await widgetPays(s, { method: 'googlepay', amount: 1234, currency: 'ILS' }, SHOP);
    const link = await commitLinkOf(paid.body.TransactionNumber);
    const res = await t.app.request(link.pathname);
    expect(res.status).toBe(200);
    expect(((await res.json()) as CommitResponse).transaction).toMatchObject({ status: Status.Approved, amountCents: 1234 });
    expect((await t.app.request(link.pathname)).status).toBe(409);
    expect((await t.app.request('/transactions/commitPayment/cmt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
  });

  it('a declined card ends Declined (2) and answers 402; a bad card 400; no amount for a capture 400', async () => {
    const s = (await session('manual_capture')).body;
    const declined = await widgetPays(s, { method: 'card', card: { ...CARD, number: '4000000000000002' }, amount: 100, currency: 'USD' });
    expect(declined.status).toBe(402);
    expect(codeOf(declined.body)).toBe('card_declined');
    const bad = await widgetPays(s, { method: 'card', card: { ...CARD, number: '4242424242424241' }, amount: 100, currency: 'USD' });
    expect(bad.status).toBe(400);
    expect(codeOf(bad.body)).toBe('invalid_card');
    const noAmount = await widgetPays(s, { method: 'card', card: CARD });
    expect(noAmount.status).toBe(400);
  });

  it('refuses product amounts that init refuses too (negative, not a number, not whole cents, missing), with their paths', async () => {
    const s = (await session('manual_capture')).body;
    const paid = await widgetPays(s, { method: 'card', card: CARD, amount: 900, currency: 'USD' });
    const bad = await commit(paid.body.TransactionNumber, {
      amount: 900,
      currency: 'USD',
      products: [
        { name: 'a', quantity: 1, amount: 2.5 },
        { name: 'b', quantity: 1, amount: 100, vat: -200, discount: 'abc' },
        { name: 'c', quantity: 1, amount: '' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(codeOf(bad.body)).toBe('validation_failed');
    const paths = (bad.body as unknown as { errors: { path: string }[] }).errors.map((e) => e.path).sort();
    expect(paths).toEqual(['products.0.amount', 'products.1.discount', 'products.1.vat', 'products.2.amount']);
    // Nothing was committed: the payment still waits for a good commit.
    expect((await commit(paid.body.TransactionNumber, { amount: 900, currency: 'USD', products: [{ name: 'a', quantity: 2, amount: 450 }] })).status).toBe(200);
  });

  it('commits racing for one payment capture it at the processor once', async () => {
    // Each capture takes a moment, so the racing commits overlap.
    const processor = new RecordingProcessor(30);
    const counted = await startTestApp(t.database, { env: UNTHROTTLED, processor });
    try {
      const s = (await session('manual_capture')).body;
      const paid = await widgetPays(s, { method: 'card', card: CARD, amount: 900, currency: 'USD' });
      const number = paid.body.TransactionNumber;
      const commitId = (await commitLinkOf(number)).pathname.split('/commitPayment/')[1]!;
      const headers = { authorization: `Bearer ${t.merchant.apiKey}` };
      const answers = await Promise.all([
        counted.request(`/transactions/${number}/commit`, { headers, body: { amount: 900, currency: 'USD' } }),
        counted.request(`/transactions/${number}/commit`, { headers, body: { amount: 800, currency: 'USD' } }),
        counted.request(`/transactions/commitPayment/${commitId}`),
      ]);
      expect(answers.map((res) => res.status).sort()).toEqual([200, 409, 409]);
      expect(processor.captures).toBe(1);
      const final = await t.client.get(number);
      expect(final.body.status).toBe(Status.Approved);
      expect(final.body.payments).toHaveLength(1);
    } finally {
      await counted.close();
    }
  });

  it('a transaction that needs no commit refuses one', async () => {
    const sale = await t.client.init({ amount: 5, currency: 'USD' });
    expect(codeOf((await commit(sale.body.TransactionNumber, { amount: 500, currency: 'USD' })).body)).toBe('not_awaiting_commit');
    expect((await commit('NOSUCHTRANSACTION', { amount: 500, currency: 'USD' })).status).toBe(404);
  });
});
