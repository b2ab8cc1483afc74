// The cost of a page of GET /transactions on a store: each kind of page asked `repeat` times in a row on one
// keep-alive connection, after one unmeasured ask (so each kind is timed warm). The pages are the ones a back office
// asks: the newest, one deep in the list by its cursor, a search by a transaction number and by the last four digits
// of a card, a status filter. Paths and queries come from protocol's endpoint table and its query writer.
import { endpointRequest } from '../protocol/src/endpoint-path.ts';
import { listTransactionsSearch } from '../protocol/src/transaction-list.ts';
import { Latencies } from './latencies.mjs';
import { merchantHeaders } from './lifecycle.mjs';
import { createConnection } from './load-client.mjs';

/** How deep the deep page is: the page after this many pages of 20. */
const DEEP_PAGES = 9;

/**
 * @param {string} baseUrl
 * @param {string} apiKey
 * @param {string} transactionNumber a stored transaction to search for
 * @param {number} repeat
 * @returns {Promise<{ kind: string, count: number, p50: number, p99: number, max: number }[]>}
 */
export async function measureListPages(baseUrl, apiKey, transactionNumber, repeat) {
  const connection = createConnection(baseUrl);
  const { method, path } = endpointRequest('listTransactions');
  /** @param {import('../protocol/src/transaction-list.ts').ListTransactionsParams} params @param {(ms: number) => void} [onTime] */
  const page = (params, onTime) => connection.request(method, `${path}${listTransactionsSearch(params)}`, { headers: merchantHeaders(apiKey), onTime });
  try {
    let cursor = null;
    for (let i = 0; i < DEEP_PAGES; i++) cursor = (await page({ limit: 20, startingAfter: cursor })).nextCursor ?? cursor;
    /** @type {{ kind: string, params: import('../protocol/src/transaction-list.ts').ListTransactionsParams }[]} */
    const kinds = [
      { kind: 'the newest 20', params: { limit: 20 } },
      { kind: `20 after ${DEEP_PAGES * 20} (by cursor)`, params: { limit: 20, startingAfter: cursor } },
      { kind: 'q: a transaction number', params: { q: transactionNumber } },
      { kind: 'q: last four digits', params: { limit: 20, q: '4242' } },
      { kind: 'status filter (Captured)', params: { limit: 20, status: 7 } },
    ];
    const results = [];
    for (const { kind, params } of kinds) {
      const latencies = new Latencies();
      await page(params);
      for (let i = 0; i < repeat; i++) await page(params, (ms) => latencies.add(ms));
      results.push({ kind, ...latencies.summary() });
    }
    return results;
  } finally {
    connection.close();
  }
}
