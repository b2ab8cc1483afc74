/** Expiries release at the processor what they release in the books: a hold past its time, a commit window missed. */
import { Status, type SdkSession, type Transaction } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app';
import { RecordingProcessor } from '../../test/recording-processor';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { provisionTestMerchant } from '../../test/fixtures';
import { UNTHROTTLED } from '../../test/harness';
import { authorizedHold, merchantClient, type MerchantClient } from '../../test/merchant-client';

const SHOP = 'https://shop.example.com';
const processor = new RecordingProcessor();
let database: TestDatabase;
let app: TestApp;
let client: MerchantClient;
let clientId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database, { env: UNTHROTTLED, processor });
  const merchant = await provisionTestMerchant(database.db, 'Expiring Shop', [SHOP]);
  client = merchantClient(app, merchant);
  clientId = merchant.clientId;
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe('expiries at the processor', () => {
  it('a hold past its expiry releases what it still held', async () => {
    const hold = await authorizedHold(app, client, 1_000);
    expect((await client.pay({ token: hold.token, amount: 300 })).status).toBe(200);
    processor.released = [];
    await client.advanceClock(Number(app.env.AUTHORIZATION_HOLD_S) + 1);
    expect((await client.get(hold.transactionNumber)).body).toMatchObject({ status: Status.Expired });
    expect(processor.released.map((r) => r.amountCents)).toEqual([700]);
  });

  it('a widget payment not committed in its window releases what the consumer approved', async () => {
    const session = (await (
      await app.request('/sdk/sessions', { headers: { origin: SHOP }, body: { clientId, methodType: 'manual_capture', mode: 'sandbox' } })
    ).json()) as SdkSession;
    const paid = await app.request(`/sdk/sessions/${session.sessionId}/payments`, {
      headers: { authorization: `Bearer ${session.sessionToken}`, origin: new URL(app.env.PUBLIC_BASE_URL).origin },
      body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' }, amount: 2_500, currency: 'USD' },
    });
    const transaction = (await paid.json()) as Transaction;
    expect(transaction.status).toBe(Status.AwaitingCommit);
    processor.released = [];
    await client.advanceClock(Number(app.env.COMMIT_WINDOW_S) + 1);
    expect((await client.get(transaction.TransactionNumber)).body).toMatchObject({ status: Status.Expired });
    expect(processor.released.map((r) => r.amountCents)).toEqual([2_500]);
  });
});
