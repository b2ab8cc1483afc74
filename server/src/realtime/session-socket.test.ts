import type { ProvisionedMerchant, SdkSession, Transaction } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { provisionTestMerchant } from '../test/fixtures';
import { merchantClient } from '../test/merchant-client';
import { isSubscribed, isUpdate, openSocket, startRealtimeApp, upgradeStatus, type RealtimeTestApp } from './testing';
import { Status } from '@svc/protocol';

const SHOP = 'https://shop.example.com';
let database: TestDatabase;
let app: RealtimeTestApp;
let merchant: ProvisionedMerchant;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startRealtimeApp(database);
  merchant = await provisionTestMerchant(database.db, 'Socket Shop', [SHOP]);
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

describe('an SDK session socket (?session=)', () => {
  it('follows the payment its session made, from the session origin only, without secrets', async () => {
    const session = (await (
      await app.request('/sdk/sessions', { headers: { origin: SHOP }, body: { clientId: merchant.clientId, methodType: 'authorize', mode: 'sandbox' } })
    ).json()) as SdkSession;
    expect(await upgradeStatus(app, { query: { session: session.sessionToken }, origin: SHOP })).toBe(401); // nothing paid yet

    const paid = await app.request(`/sdk/sessions/${session.sessionId}/payments`, {
      headers: { authorization: `Bearer ${session.sessionToken}`, origin: new URL(app.env.PUBLIC_BASE_URL).origin },
      body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' }, amount: 900, currency: 'USD' },
    });
    const transaction = (await paid.json()) as Transaction;
    expect(await upgradeStatus(app, { query: { session: session.sessionToken }, origin: 'https://evil.example.com' })).toBe(403);
    expect(await upgradeStatus(app, { query: { session: 'sess_unknown' }, origin: SHOP })).toBe(401);

    const socket = await openSocket(app, { query: { session: session.sessionToken }, origin: SHOP });
    socket.send({ type: 'subscribe', transactionNumber: transaction.TransactionNumber });
    await socket.next(isSubscribed);
    const committed = await merchantClient(app, merchant).call('POST', `/transactions/${transaction.TransactionNumber}/commit`, {
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
