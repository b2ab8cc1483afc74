import type { TransactionPage } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../test/app';
import { addBranch, firstDeviceRowId, insertPendingTransaction, provisionTestMerchant } from '../../test/fixtures';
import { useTestApp, UNTHROTTLED } from '../../test/harness';

/**
 * Every page of `GET /transactions` keeps the caller's scope, the pages after the first (a cursor) as much as the
 * first: the caller's rows at t0 and t2, and between them at t1 rows of another merchant, another branch, another
 * device. Pages of one row must go from t2 straight to t0.
 */
const t = useTestApp({ env: UNTHROTTLED });

const [t0, t1, t2] = ['2026-03-01T00:00:00Z', '2026-03-01T00:00:01Z', '2026-03-01T00:00:02Z'].map((at) => new Date(at)) as [Date, Date, Date];

/** Every page of one row, from the first on, as transaction numbers. */
async function pagesOfOne(key: string): Promise<string[]> {
  const numbers: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await t.app.request(`/transactions?limit=1${cursor ? `&startingAfter=${cursor}` : ''}`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    const page = (await res.json()) as TransactionPage;
    numbers.push(...page.data.map((transaction) => transaction.TransactionNumber));
    cursor = page.nextCursor;
  } while (cursor !== null && numbers.length < 10);
  return numbers;
}

describe('GET /transactions pages after the first keep the scope', () => {
  it.each(['merchant key', 'branch key', 'device'] as const)('of a %s', async (caller) => {
    const shop = await provisionTestMerchant(t.database.db);
    const stranger = await provisionTestMerchant(t.database.db);
    const otherBranch = await addBranch(t.database.db, shop.merchantId);
    const device = await firstDeviceRowId(t.database.db, shop.merchantId);
    const insert = async (owner: Parameters<typeof insertPendingTransaction>[1], at: Date) =>
      (await insertPendingTransaction(t.database.db, owner, at)).transactionNumber;

    // The caller's own, seen by all three: its branch, its device.
    const mine = { merchantId: shop.merchantId, branchId: shop.branchId, deviceId: device };
    const oldest = await insert(mine, t0);
    const newest = await insert(mine, t2);
    // Between them, everything the caller may not see.
    await insert({ merchantId: stranger.merchantId, branchId: stranger.branchId }, t1);
    if (caller !== 'merchant key') await insert({ merchantId: shop.merchantId, branchId: otherBranch.branchId, deviceId: otherBranch.deviceRowId }, t1);
    if (caller === 'device') {
      await insert({ merchantId: shop.merchantId, branchId: shop.branchId }, t1);
      await insert({ merchantId: shop.merchantId }, t1);
    }

    const key = { 'merchant key': shop.apiKey, 'branch key': shop.branchApiKey, device: shop.deviceId }[caller];
    expect(await pagesOfOne(key)).toEqual([newest, oldest]);
  });
});
