import { Status, type ProvisionedMerchant, type TransactionPage } from '@svc/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/app';
import { addBranch, firstDeviceRowId, insertPendingTransaction, provisionTestMerchant } from '../../test/fixtures';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { authorizedHold, BETA_CARD, consumerPays, merchantClient, TEST_CARD } from '../../test/merchant-client';

const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Acme' });

interface Listed {
  status: number;
  body: TransactionPage & { code?: string; errors?: { path: string; message: string }[] };
}

async function list(key: string, query = ''): Promise<Listed> {
  const res = await t.app.request(`/transactions${query ? `?${query}` : ''}`, { headers: bearer(key) });
  return { status: res.status, body: (await res.json()) as Listed['body'] };
}

const numbersOf = (page: Listed) => page.body.data.map((tx) => tx.TransactionNumber);

/** Every page from the first, following nextCursor. */
async function allPages(key: string, query: string, from: string | null = null): Promise<string[]> {
  const numbers: string[] = [];
  let cursor: string | null = from;
  do {
    const page = await list(key, `${query}${cursor ? `&startingAfter=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    numbers.push(...numbersOf(page));
    cursor = page.body.nextCursor;
    expect(cursor !== null).toBe(page.body.hasMore);
  } while (cursor);
  return numbers;
}

describe('GET /transactions: newest first, a page at a time', () => {
  let shop: ProvisionedMerchant;
  let inserted: { number: string; at: Date; id: string }[];

  beforeAll(async () => {
    shop = await provisionTestMerchant(t.database.db, 'Pages');
    inserted = [];
    // Nine transactions over five instants: several share one, so the order within an instant is by id.
    for (const [i, second] of [0, 0, 1, 2, 2, 2, 3, 4, 4].entries()) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, second, i < 3 ? 0 : 500));
      const row = await insertPendingTransaction(t.database.db, { merchantId: shop.merchantId }, at);
      inserted.push({ number: row.transactionNumber, at, id: row.id });
    }
  });

  const newestFirst = () => [...inserted].sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).map((r) => r.number);

  it('lists every transaction once, newest first, across pages of any size', async () => {
    const first = await list(shop.apiKey);
    expect(numbersOf(first)).toEqual(newestFirst());
    expect(first.body.hasMore).toBe(false);
    expect(first.body.nextCursor).toBeNull();
    for (const limit of [1, 2, 4]) expect(await allPages(shop.apiKey, `limit=${limit}`)).toEqual(newestFirst());
  });

  it('a cursor keeps its place while new transactions arrive', async () => {
    const before = newestFirst();
    const first = await list(shop.apiKey, 'limit=4');
    expect(numbersOf(first)).toEqual(before.slice(0, 4));
    // Newer transactions, and one at the very instant of the page's last row.
    const last = inserted.find((r) => r.number === before[3])!;
    for (const at of [new Date('2026-02-01T00:00:00Z'), last.at]) {
      const row = await insertPendingTransaction(t.database.db, { merchantId: shop.merchantId }, at);
      inserted.push({ number: row.transactionNumber, at, id: row.id });
    }
    const rest = await allPages(shop.apiKey, 'limit=2', first.body.nextCursor);
    const now = newestFirst();
    // Exactly what followed the page's last row in the order as it is now: nothing skipped, nothing twice.
    expect(rest).toEqual(now.slice(now.indexOf(before[3]!) + 1));
    expect(rest.filter((n) => before.slice(0, 4).includes(n))).toEqual([]);
  });
});

describe('GET /transactions filters', () => {
  let shop: ProvisionedMerchant;
  let client: ReturnType<typeof merchantClient>;
  const made: Record<string, string> = {};

  beforeAll(async () => {
    shop = await provisionTestMerchant(t.database.db, 'Filters');
    client = merchantClient(t.app, shop);
    const init = async (name: string, body: Parameters<typeof client.init>[0]) => {
      const created = await client.init(body);
      expect(created.status).toBe(200);
      made[name] = created.body.TransactionNumber;
      return created.body;
    };
    await init('pending', { amount: 500, isCent: true, currency: 'USD', posData: { orderId: 'A-17', till: 3 } });
    const paid = await init('paid', { amount: 1500, isCent: true, currency: 'USD', posData: { orderId: 'A-18' } });
    expect((await consumerPays(t.app, paid, BETA_CARD)).status).toBe(200);
    await init('cancelled', { amount: 2500, isCent: true, currency: 'USD' });
    expect((await client.cancel(made.cancelled!)).status).toBe(200);
    const hold = await authorizedHold(t.app, client, 4000, TEST_CARD);
    made.hold = hold.transactionNumber;
    expect((await client.pay({ token: hold.token, amount: 1000 })).status).toBe(200);
    await init('terminal', { amount: 700, isCent: true, currency: 'USD', deviceId: shop.deviceId });
  });

  const matching = async (query: string) => new Set(numbersOf(await list(shop.apiKey, query)));

  it('by status: one, several repeated, several comma-separated', async () => {
    expect(await matching(`status=${Status.Cancelled}`)).toEqual(new Set([made.cancelled]));
    const pendingOrPaid = new Set([made.pending, made.paid, made.terminal]);
    expect(await matching(`status=${Status.Pending}&status=${Status.Approved}`)).toEqual(pendingOrPaid);
    expect(await matching(`status=${Status.Pending},${Status.Approved}`)).toEqual(pendingOrPaid);
  });

  it('by method type, amount range, device and posData', async () => {
    expect(await matching('methodType=authorize')).toEqual(new Set([made.hold]));
    expect(await matching('minAmount=700&maxAmount=2500')).toEqual(new Set([made.paid, made.cancelled, made.terminal]));
    expect(await matching(`deviceId=${shop.deviceId}`)).toEqual(new Set([made.terminal]));
    expect(await matching('posData[orderId]=A-17')).toEqual(new Set([made.pending]));
    expect(await matching('posData[till]=3&posData[orderId]=A-17')).toEqual(new Set([made.pending]));
    expect(await matching('posData[orderId]=A-1')).toEqual(new Set());
  });

  it('by creation time: from (inclusive) and to (exclusive)', async () => {
    const paid = (await client.get(made.paid!)).body;
    expect(await matching(`createdFrom=${paid.createdAt}&createdTo=${paid.createdAt}`)).toEqual(new Set());
    const after = new Date(Date.parse(paid.createdAt) + 1).toISOString();
    const from = await matching(`createdFrom=${paid.createdAt}&createdTo=${after}`);
    expect(from.has(made.paid!)).toBe(true);
    expect(from.has(made.pending!)).toBe(false);
    expect(await matching('createdFrom=2099-01-01T00:00:00Z')).toEqual(new Set());
  });

  it('q finds a transaction number (any letter case), a confirmation number, the last four digits', async () => {
    expect(await matching(`q=${made.pending}`)).toEqual(new Set([made.pending]));
    expect(await matching(`q=${made.pending!.toLowerCase()}`)).toEqual(new Set([made.pending]));
    const paid = (await client.get(made.paid!)).body;
    expect(await matching(`q=${paid.confirmation!.confirmationNumber}`)).toEqual(new Set([made.paid]));
    expect(await matching('q=4444')).toEqual(new Set([made.paid]));
    expect(await matching('q=4242')).toEqual(new Set([made.hold]));
    // A capture's own confirmation number (its payment's) finds its authorization.
    const hold = (await client.get(made.hold!)).body;
    const capture = hold.payments.find((p) => p.confirmationNumber !== hold.confirmation?.confirmationNumber)!;
    expect(await matching(`q=${capture.confirmationNumber}`)).toEqual(new Set([made.hold]));
    expect(await matching('q=0000')).toEqual(new Set());
    expect(await matching('q=NOSUCHNUMBER')).toEqual(new Set());
  });

  it('every object of a page is the transaction object of the status query', async () => {
    const page = await list(shop.apiKey, `q=${made.hold}`);
    expect(page.body.data).toEqual([(await client.get(made.hold!)).body]);
  });
});

describe('GET /transactions scope', () => {
  let acme: ProvisionedMerchant;
  let second: Awaited<ReturnType<typeof addBranch>>;
  const rows: Record<string, string> = {};

  beforeAll(async () => {
    acme = await provisionTestMerchant(t.database.db, 'Scoped');
    const other = await provisionTestMerchant(t.database.db, 'Stranger');
    second = await addBranch(t.database.db, acme.merchantId);
    const mainDevice = await firstDeviceRowId(t.database.db, acme.merchantId);
    const insert = async (name: string, owner: Parameters<typeof insertPendingTransaction>[1]) => {
      rows[name] = (await insertPendingTransaction(t.database.db, owner)).transactionNumber;
    };
    await insert('mainBranchDevice', { merchantId: acme.merchantId, branchId: acme.branchId, deviceId: mainDevice });
    await insert('mainBranch', { merchantId: acme.merchantId, branchId: acme.branchId });
    await insert('secondBranch', { merchantId: acme.merchantId, branchId: second.branchId, deviceId: second.deviceRowId });
    await insert('merchantLevel', { merchantId: acme.merchantId });
    await insert('stranger', { merchantId: other.merchantId, branchId: other.branchId });
  });

  const seen = async (key: string, query = '') => new Set(numbersOf(await list(key, query)));

  it("a merchant key sees all of its merchant's, and nobody else's", async () => {
    expect(await seen(acme.apiKey)).toEqual(new Set([rows.mainBranchDevice, rows.mainBranch, rows.secondBranch, rows.merchantLevel]));
  });

  it("a branch key sees its branch's, a device its own", async () => {
    expect(await seen(acme.branchApiKey)).toEqual(new Set([rows.mainBranchDevice, rows.mainBranch]));
    expect(await seen(second.branchApiKey)).toEqual(new Set([rows.secondBranch]));
    expect(await seen(acme.deviceId)).toEqual(new Set([rows.mainBranchDevice]));
    expect(await seen(second.deviceId)).toEqual(new Set([rows.secondBranch]));
  });

  it('q and the filters never reach outside the scope', async () => {
    expect(await seen(acme.branchApiKey, `q=${rows.secondBranch}`)).toEqual(new Set());
    expect(await seen(acme.apiKey, `q=${rows.stranger}`)).toEqual(new Set());
    expect(await seen(acme.apiKey, `deviceId=${second.deviceId}`)).toEqual(new Set([rows.secondBranch]));
  });

  it('a device of another branch (or another merchant) is a bad deviceId, not an empty page', async () => {
    const answer = await list(acme.branchApiKey, `deviceId=${second.deviceId}`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ path: 'deviceId', message: expect.stringContaining('not a device') }]);
    expect((await list(acme.deviceId, `deviceId=${second.deviceId}`)).status).toBe(400);
  });

  it('a client ID is refused', async () => {
    const answer = await list(acme.clientId);
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('client_id_not_allowed');
  });
});

describe('GET /transactions refuses a bad parameter, naming it', () => {
  const refusals: [string, string][] = [
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=5&limit=6', 'limit'],
    ['status=99', 'status'],
    ['status=1,x', 'status'],
    ['createdFrom=yesterday', 'createdFrom'],
    ['createdFrom=2026-02-01T00:00:00Z&createdTo=2026-01-01T00:00:00Z', 'createdTo'],
    ['methodType=refund', 'methodType'],
    ['minAmount=-1', 'minAmount'],
    ['minAmount=500&maxAmount=100', 'maxAmount'],
    ['deviceId=sk_live', 'deviceId'],
    ['deviceId=dev_unknown', 'deviceId'],
    ['startingAfter=bm90LWEtY3Vyc29y', 'startingAfter'],
    ['startingAfter=%3D%3D', 'startingAfter'],
    ['q=', 'q'],
    ['posData=x', 'posData'],
    ['sort=asc', 'sort'],
  ];

  it.each(refusals)('%s', async (query, parameter) => {
    const answer = await list(t.merchant.apiKey, query);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('validation_failed');
    expect(answer.body.errors?.map((e) => e.path.split('.')[0])).toContain(parameter);
  });
});
