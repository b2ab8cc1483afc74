// Metric 8: refunds per second over a backlog of paid sales (partial refunds spread round-robin over `sales`
// transactions, so concurrent refunds rarely meet on one row), p50/p99 under the 8-client load.
import { callEndpoint, merchantHeaders, payLink } from '../lifecycle.mjs';
import { Latencies } from '../latencies.mjs';
import { createConnection, runClosedLoop, runCount } from '../load-client.mjs';

const CLIENTS = 8;
const SALE_CENTS = 10_000_000;
const REFUND_CENTS = 100;

/**
 * A sale the consumer paid on its link: init, pay. Resolves with its transaction number.
 * @param {import('../load-client.mjs').Connection} connection
 * @param {string} apiKey
 */
async function createSale(connection, apiKey) {
  /** @type {import('../lifecycle.mjs').TransactionAnswer} */
  const created = await callEndpoint(connection, 'initTransaction', {
    body: { amount: SALE_CENTS, isCent: true, currency: 'USD' },
    headers: merchantHeaders(apiKey),
  });
  await payLink(connection, created);
  return created.TransactionNumber;
}

/**
 * @param {{ server: { url: string, memory(): { rssBytes: number, peakRssBytes: number } }, merchant: { apiKey: string }, config: { sales: number, salesMaxMs: number, warmupMs: number, durationMs: number }, log: (line: string) => void }} context
 */
export async function measureRefunds({ server, merchant, config, log }) {
  const connections = Array.from({ length: CLIENTS }, () => createConnection(server.url));
  try {
    log(`  paying up to ${config.sales} sales (at most ${config.salesMaxMs / 1000} s)…`);
    const sales = await runCount({
      clients: CLIENTS,
      count: config.sales,
      maxMs: config.salesMaxMs,
      iteration: (i) => createSale(connections[i], merchant.apiKey),
    });
    let next = 0;
    /** @param {number} i @param {((ms: number) => void)} [onTime] */
    const iteration = (i, onTime) =>
      callEndpoint(connections[i], 'refundTransaction', {
        params: { transactionNumber: sales[next++ % sales.length] },
        body: { amount: REFUND_CENTS },
        headers: merchantHeaders(merchant.apiKey),
        onTime,
      });
    await runClosedLoop({ clients: CLIENTS, durationMs: config.warmupMs, iteration: (i) => iteration(i) });
    const latencies = new Latencies();
    const result = await runClosedLoop({
      clients: CLIENTS,
      durationMs: config.durationMs,
      iteration: (i) => iteration(i, (ms) => latencies.add(ms)),
      onWindowEnd: () => latencies.close(),
    });
    return { clients: CLIENTS, sales: sales.length, ...result, latencies: latencies.summary() };
  } finally {
    connections.forEach((c) => c.close());
  }
}
