import type { SdkSession, Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { isSubscribed, isUpdate, upgradeStatus, useRealtimeApp } from './testing';
import { Status } from '@svc/protocol';

const SHOP = 'https://shop.example.com';
const t = useRealtimeApp({ merchantName: 'Socket Shop', origins: [SHOP] });

describe('an SDK session socket (?session=)', () => {
  it('follows the payment its session made, from the session origin or the service itself only, without secrets', async () => {
    const session = (await (
      await t.app.request('/sdk/sessions', { headers: { origin: SHOP }, body: { clientId: t.merchant.clientId, methodType: 'authorize', mode: 'sandbox' } })
    ).json()) as SdkSession;
    expect(await upgradeStatus(t.app, { query: { session: session.sessionToken }, origin: SHOP })).toBe(401); // nothing paid yet

    const paid = await t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
      headers: { authorization: `Bearer ${session.sessionToken}`, origin: new URL(t.app.env.PUBLIC_BASE_URL).origin },
      body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' }, amount: 900, currency: 'USD' },
    });
    const transaction = (await paid.json()) as Transaction;
    expect(await upgradeStatus(t.app, { query: { session: session.sessionToken }, origin: 'https://evil.example.com' })).toBe(403);
    expect(await upgradeStatus(t.app, { query: { session: 'sess_unknown' }, origin: SHOP })).toBe(401);
    // The card frame and the iframe SDK's widget page, on the service's own origin, follow it too (3-D Secure).
    expect(await upgradeStatus(t.app, { query: { session: session.sessionToken }, origin: new URL(t.app.env.PUBLIC_BASE_URL).origin })).toBe(101);

    const socket = await t.socket({ query: { session: session.sessionToken }, origin: SHOP });
    socket.send({ type: 'subscribe', transactionNumber: transaction.TransactionNumber });
    await socket.next(isSubscribed);
    const committed = await t.client.call('POST', `/transactions/${transaction.TransactionNumber}/commit`, {
      amount: 900,
      currency: 'USD',
    });
    expect(committed.status).toBe(200);
    const update = await socket.next(isUpdate);
    expect(update.transaction).toMatchObject({ TransactionNumber: transaction.TransactionNumber, status: Status.Authorized });
    expect(update.transaction.paymentDetails).toBeNull(); // the browser never sees the token
    await socket.close();
  });
});
