import { describe, expect, it } from 'vitest';
import { createMerchantClient, Status } from './index';
import { Status as ProtocolStatus } from '@svc/protocol';

/** A fetch answering each listing request from `pages` (keyed by its `startingAfter`), recording the URLs. */
function pagedFetch(pages: Record<string, { data: unknown[]; hasMore: boolean; nextCursor: string | null }>) {
  const urls: string[] = [];
  const fetch = (async (url: string) => {
    urls.push(url);
    const page = pages[new URL(url).searchParams.get('startingAfter') ?? 'first'];
    return page ? new Response(JSON.stringify(page), { headers: { 'content-type': 'application/json' } }) : new Response('{}', { status: 500 });
  }) as unknown as typeof globalThis.fetch;
  return { urls, fetch };
}

const PAGES = {
  first: { data: [{ TransactionNumber: 'A' }, { TransactionNumber: 'B' }], hasMore: true, nextCursor: 'c1' },
  c1: { data: [{ TransactionNumber: 'C' }, { TransactionNumber: 'D' }], hasMore: true, nextCursor: 'c2' },
  c2: { data: [{ TransactionNumber: 'E' }], hasMore: false, nextCursor: null },
};

describe('listings', () => {
  it('iterate every transaction of every page with for await, the filters typed as the service reads them', async () => {
    const { urls, fetch } = pagedFetch(PAGES);
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch });
    const seen: string[] = [];
    for await (const transaction of client.transactions.list({
      status: [Status.PartiallyRefunded, Status.Refunded],
      limit: 2,
      createdFrom: new Date('2026-01-01T00:00:00Z'),
    })) {
      seen.push(transaction.TransactionNumber);
    }
    expect(seen).toEqual(['A', 'B', 'C', 'D', 'E']);
    const filters = 'status=13&status=14&limit=2&createdFrom=2026-01-01T00%3A00%3A00.000Z';
    expect(urls).toEqual([
      `http://svc.test/transactions?${filters}`,
      `http://svc.test/transactions?${filters}&startingAfter=c1`,
      `http://svc.test/transactions?${filters}&startingAfter=c2`,
    ]);
  });

  it('answer the first page when awaited, and stop iterating where the caller stops', async () => {
    const { urls, fetch } = pagedFetch(PAGES);
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch });
    const page = await client.listTransactions({ q: '4242' });
    expect(page).toMatchObject({ hasMore: true, nextCursor: 'c1', data: [{ TransactionNumber: 'A' }, { TransactionNumber: 'B' }] });
    for await (const transaction of client.listTransactions()) if (transaction.TransactionNumber === 'A') break;
    expect(urls).toEqual(['http://svc.test/transactions?q=4242', 'http://svc.test/transactions']);
  });

  it('page the audit log the same way', async () => {
    const { urls, fetch } = pagedFetch({
      first: { data: [{ id: '3' }], hasMore: true, nextCursor: '3' },
      '3': { data: [{ id: '2' }, { id: '1' }], hasMore: false, nextCursor: null },
    });
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch });
    const ids: string[] = [];
    for await (const entry of client.auditLog.list({ limit: 1 })) ids.push(entry.id);
    expect(ids).toEqual(['3', '2', '1']);
    expect(urls).toEqual(['http://svc.test/merchant/audit-log?limit=1', 'http://svc.test/merchant/audit-log?limit=1&startingAfter=3']);
  });
});

describe('Status', () => {
  it('names every status code at run time, as the service does', () => {
    expect(Status).toEqual(ProtocolStatus);
    expect(Status.Captured).toBe(7);
  });
});
