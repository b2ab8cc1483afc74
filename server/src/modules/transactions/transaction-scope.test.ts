import { Status, type ProvisionedMerchant } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../../test/app';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { addBranch, firstDeviceRowId, insertPendingTransaction, provisionTestMerchant } from '../../test/fixtures';

let database: TestDatabase;
let app: TestApp;
let acme: ProvisionedMerchant;
let other: ProvisionedMerchant;
let secondBranch: Awaited<ReturnType<typeof addBranch>>;
let mainBranchTx: string;
let secondBranchTx: string;
let merchantLevelTx: string;
let otherMerchantTx: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  acme = await provisionTestMerchant(database.db, 'Acme');
  other = await provisionTestMerchant(database.db, 'Other');
  secondBranch = await addBranch(database.db, acme.merchantId);
  const mainDevice = await firstDeviceRowId(database.db, acme.merchantId);
  mainBranchTx = (await insertPendingTransaction(database.db, { merchantId: acme.merchantId, branchId: acme.branchId, deviceId: mainDevice }))
    .transactionNumber;
  secondBranchTx = (
    await insertPendingTransaction(database.db, { merchantId: acme.merchantId, branchId: secondBranch.branchId, deviceId: secondBranch.deviceRowId })
  ).transactionNumber;
  merchantLevelTx = (await insertPendingTransaction(database.db, { merchantId: acme.merchantId })).transactionNumber;
  otherMerchantTx = (await insertPendingTransaction(database.db, { merchantId: other.merchantId, branchId: other.branchId })).transactionNumber;
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

async function status(key: string, transactionNumber: string): Promise<number> {
  const res = await app.request(`/transactions/${transactionNumber}`, { headers: bearer(key) });
  return res.status;
}

describe('credential scope on GET /transactions/:transactionNumber', () => {
  it('a merchant key reads every transaction of its merchant, whatever the branch', async () => {
    for (const tx of [mainBranchTx, secondBranchTx, merchantLevelTx]) expect(await status(acme.apiKey, tx)).toBe(200);
  });

  it("a branch key reads its own branch's transactions and gets 404 for another branch's", async () => {
    expect(await status(acme.branchApiKey, mainBranchTx)).toBe(200);
    expect(await status(acme.branchApiKey, secondBranchTx)).toBe(404);
    expect(await status(acme.branchApiKey, merchantLevelTx)).toBe(404);
    expect(await status(secondBranch.branchApiKey, secondBranchTx)).toBe(200);
    expect(await status(secondBranch.branchApiKey, mainBranchTx)).toBe(404);
  });

  it('a device reads only the transactions sent to it', async () => {
    expect(await status(acme.deviceId, mainBranchTx)).toBe(200);
    expect(await status(acme.deviceId, secondBranchTx)).toBe(404);
    expect(await status(secondBranch.deviceId, secondBranchTx)).toBe(200);
  });

  it('another merchant gets 404, the same answer as for a number that does not exist', async () => {
    const foreign = await app.request(`/transactions/${otherMerchantTx}`, { headers: bearer(acme.apiKey) });
    const missing = await app.request('/transactions/TDOESNOTEXIST0000', { headers: bearer(acme.apiKey) });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    const [a, b] = (await Promise.all([foreign.json(), missing.json()])) as { code: string; detail: string }[];
    expect(a!.code).toBe('not_found');
    expect(a!.detail).toBe(b!.detail);
    expect(await status(other.apiKey, otherMerchantTx)).toBe(200);
  });

  it('answers the transaction object with the merchant face and links', async () => {
    const res = await app.request(`/transactions/${mainBranchTx}`, { headers: bearer(acme.apiKey) });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      TransactionNumber: mainBranchTx,
      amount: 12.5,
      amountCents: 1250,
      currency: 'USD',
      status: Status.Pending,
      statusName: 'Pending',
      businessName: 'Acme',
      sequence: 1,
      paymentCommit: { messsage: 'Commit not required', isPaymentCommitted: true, secondsToCommit: 0, commitLink: null },
    });
    expect((body.transactionPage as { qrURL: string }).qrURL).toMatch(/^http:\/\/localhost:8080\/pay\/[A-Za-z0-9_-]{32}$/);
  });
});
