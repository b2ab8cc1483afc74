import { BrowserTransactionSchema, Status, type CommitResponse, type SdkSession, type Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { codeOf } from '../../test/merchant-client';

/**
 * The SDK payment's answer goes to the consumer's browser (the card frame, the iframe widget, Express): it must not
 * carry what only the merchant's backend may have. A GET of the commitLink commits the payment without a credential.
 */
const SHOP = 'https://shop.example.com';
const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' };
const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Answer Shop', origins: [SHOP] });

async function session(methodType: 'manual_capture' | 'authorize' | 'tokenize'): Promise<SdkSession> {
  const res = await t.app.request('/sdk/sessions', { headers: { origin: SHOP }, body: { clientId: t.merchant.clientId, methodType, mode: 'sandbox' } });
  expect(res.status).toBe(200);
  return (await res.json()) as SdkSession;
}

/** What the consumer's browser gets back from its payment: the answer's text, as sent. */
async function consumerPays(s: SdkSession, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const origin = body.method === 'card' ? new URL(t.app.env.PUBLIC_BASE_URL).origin : SHOP;
  const res = await t.app.request(`/sdk/sessions/${s.sessionId}/payments`, {
    headers: { authorization: `Bearer ${s.sessionToken}`, origin, ...headers },
    body,
  });
  return { status: res.status, text: await res.text() };
}

const commit = (transactionNumber: string, body: Record<string, unknown>) =>
  t.client.call<CommitResponse>('POST', `/transactions/${transactionNumber}/commit`, body);

describe('the SDK payment answer', () => {
  it.each(['manual_capture', 'authorize', 'tokenize'] as const)(
    'of a %s session is the browser view: no commitLink, no token, no POS data',
    async (methodType) => {
      const s = await session(methodType);
      const paid = await consumerPays(s, { method: 'card', card: CARD, ...(methodType === 'tokenize' ? {} : { amount: 900, currency: 'USD' }) });
      expect(paid.status).toBe(200);
      expect(paid.text).not.toContain('/commitPayment/');
      const transaction = BrowserTransactionSchema.strict().parse(JSON.parse(paid.text));
      expect(transaction).toMatchObject({ status: Status.AwaitingCommit, paymentDetails: null, posData: null });
      expect(transaction.paymentCommit).toEqual({
        messsage: 'Waiting for the merchant to commit the payment',
        isPaymentCommitted: false,
        secondsToCommit: 600,
        commitLink: null,
      });
      // The merchant's status query has the commitLink.
      const status = await t.client.get(transaction.TransactionNumber);
      expect(status.body.paymentCommit.commitLink).toMatch(/\/transactions\/commitPayment\/cmt_[A-Za-z0-9]{32}$/);
    },
  );

  it('replayed under its Idempotency-Key is the same browser view', async () => {
    const s = await session('manual_capture');
    const headers = { 'idempotency-key': 'answer-replay-1' };
    const first = await consumerPays(s, { method: 'paypal', amount: 300, currency: 'USD' }, headers);
    const again = await consumerPays(s, { method: 'paypal', amount: 300, currency: 'USD' }, headers);
    expect(again).toEqual(first);
    expect(again.text).not.toContain('/commitPayment/');
  });
});

describe('a consumer cannot commit their own widget payment', () => {
  it('pays 1 cent through the SDK session: nothing it receives commits it, and the merchant sees the shortfall', async () => {
    const s = await session('manual_capture');
    const paid = await consumerPays(s, { method: 'paypal', amount: 1, currency: 'USD' });
    expect(paid.status).toBe(200);
    const { TransactionNumber, transactionPage } = JSON.parse(paid.text) as Transaction;
    // Nothing in the answer names the commit: the consumer has no link to GET.
    expect(paid.text).not.toMatch(/commitPayment|cmt_/);
    // The hosted page of the payment's link (its qrURL) is no way in either: a widget payment is not link-payable.
    const linkId = transactionPage.qrURL.split('/pay/')[1]!;
    const state = await t.app.request(`/pay/${linkId}/state`);
    expect(await state.text()).not.toMatch(/commitPayment|cmt_/);

    // The payment still waits for the merchant's commit, and the merchant's commit of the order's 25.00 is refused
    // for what it is (the consumer approved 1 cent), not answered as already committed.
    expect((await t.client.get(TransactionNumber)).body).toMatchObject({ status: Status.AwaitingCommit, paymentCommit: { isPaymentCommitted: false } });
    const ordered = await commit(TransactionNumber, { amount: 2500, currency: 'USD' });
    expect(ordered.status).toBe(409);
    expect(codeOf(ordered.body)).toBe('amount_exceeds_approved');
  });

  it('pays the order amount through the SDK session: the merchant commit of the real amount succeeds', async () => {
    const s = await session('authorize');
    const paid = await consumerPays(s, { method: 'paypal', amount: 2500, currency: 'USD' });
    expect(paid.text).not.toMatch(/commitPayment|cmt_/);
    const { TransactionNumber } = JSON.parse(paid.text) as Transaction;
    const done = await commit(TransactionNumber, { amount: 2500, currency: 'USD', methodType: 'authorize' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ transactionStatus: Status.Authorized, paymentDetails: { type: 'authorization' } });
  });
});
