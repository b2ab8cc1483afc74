import { Status, type ProvisionedMerchant, type SdkSession, type Transaction } from '@svc/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { provisionTestMerchant } from '../../test/fixtures';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { authorizedHold, codeOf, merchantClient, type MerchantClient } from '../../test/merchant-client';

/**
 * Every endpoint that finds a transaction (or its delivery) by what the caller names answers 404 for another merchant's,
 * and leaves it as it was. Each transaction below is one its own merchant could act on, so a lookup without the
 * merchant's scope would answer something else than 404.
 */
const SHOP = 'https://other-shop.example.com';
const t = useTestApp({ env: { ...UNTHROTTLED, CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' }, merchantName: 'Acme' });
let other: ProvisionedMerchant;
let owner: MerchantClient;

beforeAll(async () => {
  other = await provisionTestMerchant(t.database.db, 'Other', [SHOP]);
  owner = merchantClient(t.app, other);
});

/** The caller (Acme) gets 404 not_found, as for a number that does not exist. */
function expectNotFound(answer: { status: number; body: unknown }): void {
  expect(answer.status).toBe(404);
  expect(codeOf(answer.body)).toBe('not_found');
}

async function statusOf(transactionNumber: string): Promise<number> {
  return (await owner.get(transactionNumber)).body.status;
}

async function otherPendingSale(): Promise<string> {
  const created = await owner.init({ amount: 12.5, currency: 'USD', callbackURL: 'http://127.0.0.1:9/hooks' });
  expect(created.status).toBe(200);
  return created.body.TransactionNumber;
}

/** An SDK payment of the other merchant, waiting for its commit. */
async function otherAwaitingCommit(): Promise<string> {
  const started = await t.app.request('/sdk/sessions', {
    headers: { origin: SHOP },
    body: { clientId: other.clientId, methodType: 'manual_capture', mode: 'sandbox' },
  });
  const session = (await started.json()) as SdkSession;
  const paid = await t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
    headers: { authorization: `Bearer ${session.sessionToken}`, origin: SHOP },
    body: { method: 'paypal', amount: 700, currency: 'USD' },
  });
  const transaction = (await paid.json()) as Transaction;
  expect(transaction.status).toBe(Status.AwaitingCommit);
  return transaction.TransactionNumber;
}

describe("another merchant's transaction answers 404", () => {
  it('to commit by number', async () => {
    const number = await otherAwaitingCommit();
    expectNotFound(await t.client.call('POST', `/transactions/${number}/commit`, { amount: 700, currency: 'USD' }));
    expect(await statusOf(number)).toBe(Status.AwaitingCommit);
    expect((await owner.call('POST', `/transactions/${number}/commit`, { amount: 700, currency: 'USD' })).status).toBe(200);
  });

  it('to cancel by number', async () => {
    const number = await otherPendingSale();
    expectNotFound(await t.client.cancel(number));
    expect(await statusOf(number)).toBe(Status.Pending);
    expect((await owner.cancel(number)).status).toBe(200);
  });

  it('to void by number, and by token', async () => {
    const hold = await authorizedHold(t.app, owner, 900);
    expectNotFound(await t.client.void({ transactionNumber: hold.transactionNumber }));
    expectNotFound(await t.client.void({ token: hold.token }));
    expect(await statusOf(hold.transactionNumber)).toBe(Status.Authorized);
    expect((await owner.void({ transactionNumber: hold.transactionNumber })).status).toBe(200);
  });

  it('to close an authorization by number', async () => {
    const hold = await authorizedHold(t.app, owner, 900);
    expect((await owner.pay({ token: hold.token, amount: 300 })).status).toBe(200);
    expectNotFound(await t.client.closeAuth(hold.transactionNumber));
    expect(await statusOf(hold.transactionNumber)).toBe(Status.PartiallyCaptured);
    expect((await owner.closeAuth(hold.transactionNumber)).status).toBe(200);
  });

  it('to re-authorize and to capture with its token', async () => {
    const hold = await authorizedHold(t.app, owner, 900);
    expectNotFound(await t.client.authorize({ token: hold.token, amount: 900 }));
    expectNotFound(await t.client.pay({ token: hold.token, amount: 100 }));
    expect(await statusOf(hold.transactionNumber)).toBe(Status.Authorized);
    expect((await owner.authorize({ token: hold.token, amount: 900 })).status).toBe(200);
  });

  it('to saving and reading its receipt', async () => {
    const number = await otherPendingSale();
    expectNotFound(await t.client.call('POST', `/transactions/${number}/receipt`, { receipt: { lines: ['forged'] } }));
    expectNotFound(await t.client.call('GET', `/transactions/${number}/receipt`));
    expect((await owner.call('POST', `/transactions/${number}/receipt`, { receipt: { lines: ['tea'] } })).status).toBe(200);
    expectNotFound(await t.client.call('GET', `/transactions/${number}/receipt`));
    expect((await owner.call<{ receipt: unknown }>('GET', `/transactions/${number}/receipt`)).body).toMatchObject({ receipt: { lines: ['tea'] } });
  });

  it('to its delivery log, and to redelivering one of its deliveries', async () => {
    const number = await otherPendingSale();
    expect((await owner.cancel(number)).status).toBe(200);
    expectNotFound(await t.client.call('GET', `/transactions/${number}/callbacks`));
    const log = await owner.call<{ deliveries: { deliveryId: string }[] }>('GET', `/transactions/${number}/callbacks`);
    expect(log.status).toBe(200);
    const deliveryId = log.body.deliveries[0]!.deliveryId;
    expectNotFound(await t.client.call('POST', `/callbacks/${deliveryId}/redeliver`));
    expect((await owner.call('POST', `/callbacks/${deliveryId}/redeliver`)).status).toBe(202);
  });
});
