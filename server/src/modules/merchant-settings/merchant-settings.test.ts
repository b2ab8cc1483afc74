import type { CallbackLog, MerchantSettings, ProvisionedMerchant, Transaction } from '@svc/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { addBranch, provisionTestMerchant } from '../../test/fixtures';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { merchantClient, type Answer } from '../../test/merchant-client';

const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Settings' });

const MERCHANT_HOOK = 'https://merchant.example.com/hooks';
const BRANCH_HOOK = 'https://branch.example.com/hooks';

type Problem = { code: string; detail: string; errors?: { path: string; message: string }[] };

function as(key: string) {
  const client = merchantClient(t.app, { apiKey: key });
  return {
    ...client,
    settings: () => client.call<MerchantSettings & Problem>('GET', '/merchant/settings'),
    update: (body: unknown) => client.call<MerchantSettings & Problem>('POST', '/merchant/settings', body),
    /** Where the transaction's callbacks go: the delivery of its first update (a cancel). */
    callbackOf: async (created: Answer<Transaction>) => {
      expect(created.status).toBe(200);
      expect((await client.cancel(created.body.TransactionNumber)).status).toBe(200);
      const log = await client.call<CallbackLog>('GET', `/transactions/${created.body.TransactionNumber}/callbacks`);
      const delivery = log.body.deliveries[0];
      return delivery ? { url: delivery.url, method: delivery.method } : null;
    },
  };
}

describe('merchant settings: the default callback', () => {
  let shop: ProvisionedMerchant;
  let second: Awaited<ReturnType<typeof addBranch>>;
  let merchant: ReturnType<typeof as>;

  beforeAll(async () => {
    shop = await provisionTestMerchant(t.database.db, 'Defaults');
    second = await addBranch(t.database.db, shop.merchantId);
    merchant = as(shop.apiKey);
  });

  const sale = { amount: 10, currency: 'USD' } as const;

  it('none at first: an init without callbackURL has no callback', async () => {
    const settings = await merchant.settings();
    expect(settings.status).toBe(200);
    expect(settings.body).toEqual({
      callbackURL: null,
      callbackMethod: 'POST',
      branches: [
        { branchId: shop.branchId, name: expect.any(String), callbackURL: null, callbackMethod: 'POST' },
        { branchId: second.branchId, name: expect.any(String), callbackURL: null, callbackMethod: 'POST' },
      ],
    });
    expect(await merchant.callbackOf(await merchant.init(sale))).toBeNull();
  });

  it("the merchant's default goes to an init that names none; an init's own callbackURL wins", async () => {
    const updated = await merchant.update({ callbackURL: MERCHANT_HOOK, callbackMethod: 'get' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ callbackURL: MERCHANT_HOOK, callbackMethod: 'GET' });
    expect(await merchant.callbackOf(await merchant.init(sale))).toEqual({ url: MERCHANT_HOOK, method: 'GET' });
    expect(await merchant.callbackOf(await merchant.init({ ...sale, callbackMethod: 'POST' }))).toEqual({ url: MERCHANT_HOOK, method: 'POST' });
    const own = 'https://own.example.com/hook';
    expect(await merchant.callbackOf(await merchant.init({ ...sale, callbackURL: own }))).toEqual({ url: own, method: 'POST' });
    // A branch without a default of its own uses the merchant's.
    expect(await as(second.branchApiKey).callbackOf(await as(second.branchApiKey).init(sale))).toEqual({ url: MERCHANT_HOOK, method: 'GET' });
  });

  it("a branch's default comes first for its branch key and its devices, and only for them", async () => {
    const updated = await merchant.update({ branchId: second.branchId, callbackURL: BRANCH_HOOK });
    expect(updated.status).toBe(200);
    expect(updated.body.branches.find((b) => b.branchId === second.branchId)).toMatchObject({ callbackURL: BRANCH_HOOK, callbackMethod: 'POST' });
    const branch = as(second.branchApiKey);
    expect(await branch.callbackOf(await branch.init(sale))).toEqual({ url: BRANCH_HOOK, method: 'POST' });
    expect(await merchant.callbackOf(await merchant.init({ ...sale, deviceId: second.deviceId }))).toEqual({ url: BRANCH_HOOK, method: 'POST' });
    expect(await merchant.callbackOf(await merchant.init(sale))).toEqual({ url: MERCHANT_HOOK, method: 'GET' });
    expect(await as(shop.branchApiKey).callbackOf(await as(shop.branchApiKey).init(sale))).toEqual({ url: MERCHANT_HOOK, method: 'GET' });
  });

  it('callbackURL null removes a default; the other settings stay', async () => {
    const cleared = await merchant.update({ branchId: second.branchId, callbackURL: null });
    expect(cleared.body.branches.find((b) => b.branchId === second.branchId)).toMatchObject({ callbackURL: null });
    expect(cleared.body.callbackURL).toBe(MERCHANT_HOOK);
    const branch = as(second.branchApiKey);
    expect(await branch.callbackOf(await branch.init(sale))).toEqual({ url: MERCHANT_HOOK, method: 'GET' });
  });
});

describe('merchant settings refusals', () => {
  it('a default passes the address checks an init callbackURL does', async () => {
    for (const url of ['http://127.0.0.1:8080/hooks', 'http://169.254.169.254/latest', 'https://user:pass@merchant.example.com/hooks']) {
      const refused = await as(t.merchant.apiKey).update({ callbackURL: url });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('callback_url_not_allowed');
    }
    expect((await as(t.merchant.apiKey).settings()).body.callbackURL).toBeNull();
  });

  it('a default that no longer passes them refuses the init, naming the default', async () => {
    const shop = await provisionTestMerchant(t.database.db, 'Stale default');
    await t.database.sql`update merchants set callback_url = 'http://10.0.0.5/hooks' where id = ${shop.merchantId}`;
    const refused = await as(shop.apiKey).init({ amount: 10, currency: 'USD' });
    expect(refused.status).toBe(400);
    expect((refused.body as unknown as Problem).code).toBe('callback_url_not_allowed');
    expect((refused.body as unknown as Problem).detail).toContain("merchant's default callbackURL");
    // The default is read by the init's insert, and its refusal rolls the insert back: nothing was created.
    const [created] = await t.database.sql<{ n: number }[]>`select count(*)::int as n from transactions where merchant_id = ${shop.merchantId}`;
    expect(created!.n).toBe(0);

    const branch = await addBranch(t.database.db, shop.merchantId);
    await t.database.sql`update branches set callback_url = 'http://192.168.1.5/hooks' where id = ${branch.branchId}`;
    const byBranch = await as(branch.branchApiKey).init({ amount: 10, currency: 'USD' });
    expect(byBranch.status).toBe(400);
    expect((byBranch.body as unknown as Problem).detail).toContain("branch's default callbackURL");
  });

  it('only the merchant key: a branch key and a device are refused', async () => {
    for (const key of [t.merchant.branchApiKey, t.merchant.deviceId]) {
      const refused = await as(key).settings();
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('credential_not_allowed');
      expect((await as(key).update({ callbackURL: MERCHANT_HOOK })).status).toBe(403);
    }
  });

  it("another merchant's branch is not found; a change must name a setting", async () => {
    const other = await provisionTestMerchant(t.database.db, 'Other branch');
    const notFound = await as(t.merchant.apiKey).update({ branchId: other.branchId, callbackURL: MERCHANT_HOOK });
    expect(notFound.status).toBe(404);
    expect((await as(other.apiKey).settings()).body.branches[0]!.callbackURL).toBeNull();
    const empty = await as(t.merchant.apiKey).update({});
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('validation_failed');
    expect((await as(t.merchant.apiKey).update({ callbackMethod: 'PUT' })).body.errors?.[0]?.path).toBe('callbackMethod');
  });
});
