// What metrics 2 (captures) and 8 (refunds, beside captures) share: the 8 keep-alive clients, a timed closed loop of one operation
// with its latencies (and, when asked, the CPU it cost the server and its PostgreSQL backends), and the backlogs the
// operations take from: holds placed and sales paid through HTTP, or many copies of one of them made in the database.
import { callEndpoint, createHold, merchantHeaders, payLink } from '../lifecycle.mjs';
import { Latencies } from '../latencies.mjs';
import { createConnection } from '../load-client.mjs';
import { loadRounds } from '../load-rounds.mjs';
import { seedFinishedTransactions } from '../store-seed.mjs';

export const CLIENTS = 8;

/** @typedef {import('../load-client.mjs').Connection} Connection */
/** @typedef {import('../load-rounds.mjs').CpuSampler} CpuSampler */

/** One connection per client to `url`; `close()` closes them all. */
export function clientConnections(url) {
  const connections = Array.from({ length: CLIENTS }, () => createConnection(url));
  return Object.assign(connections, { close: () => connections.forEach((c) => c.close()) });
}

/**
 * One operation under the 8-client closed loop, round after round: each round's rate, every latency of the
 * measured rounds, and the CPU the rounds cost per operation when a sampler is given.
 * @param {(client: number, onTime?: (ms: number) => void) => Promise<unknown>} operation
 * @param {CpuSampler | null} [cpu]
 */
export function operationLoad(operation, cpu = null) {
  const latencies = new Latencies();
  const load = loadRounds({ clients: CLIENTS, latencies, cpu, iteration: (i) => operation(i, (ms) => latencies.add(ms)) });
  return {
    round: load.round,
    totals() {
      const { completed, failed, failures, perSecond, perRound, cpuPerIteration } = load.totals();
      return { completed, failed, failures, perSecond, perRound, latencies: latencies.summary(), cpuPerOperation: cpuPerIteration };
    },
  };
}

/**
 * Warm-up, then one measured window: the closed loop of metric 2 (and of metric 8 before its alternating rounds).
 * @param {(client: number, onTime?: (ms: number) => void) => Promise<unknown>} operation
 * @param {{ warmupMs: number, durationMs: number }} config
 */
export async function warmThenMeasure(operation, { warmupMs, durationMs }) {
  const load = operationLoad(operation);
  await load.round(warmupMs, { measure: false });
  await load.round(durationMs);
  const { perRound: _perRound, cpuPerOperation: _cpu, ...totals } = load.totals();
  return { ...totals, elapsedS: durationMs / 1000 };
}

/**
 * A sale the consumer paid on its link: init, pay. Resolves with its transaction number.
 * @param {Connection} connection
 * @param {string} apiKey
 * @param {number} amountCents
 */
export async function createPaidSale(connection, apiKey, amountCents) {
  /** @type {import('../lifecycle.mjs').TransactionAnswer} */
  const created = await callEndpoint(connection, 'initTransaction', {
    body: { amount: amountCents, isCent: true, currency: 'USD' },
    headers: merchantHeaders(apiKey),
  });
  await payLink(connection, created);
  return created.TransactionNumber;
}

/**
 * @param {Connection} connection
 * @param {string} apiKey
 * @param {string} transactionNumber
 * @param {number} amountCents
 * @param {(ms: number) => void} [onTime]
 */
export function refund(connection, apiKey, transactionNumber, amountCents, onTime) {
  return callEndpoint(connection, 'refundTransaction', {
    params: { transactionNumber },
    body: { amount: amountCents },
    headers: merchantHeaders(apiKey),
    onTime,
  });
}

/**
 * `count` paid sales and `count` holds, untouched, for operations that each take one of their own: one of each made
 * through HTTP (init and the consumer's payment on its link; a hold's token read as the merchant reads it), then
 * copied in the database (store-seed.mjs: the rows, events and payloads the service wrote, with new identifiers).
 * The copies keep their original's processor reference, which is how they are found again; the sandbox processor
 * answers a reference however often it is used.
 * @param {{ url: string }} server
 * @param {{ apiKey: string }} merchant
 * @param {import('postgres').Sql} sql
 * @param {number} count
 * @param {number} amountCents
 */
export async function seedBacklogs(server, merchant, sql, count, amountCents) {
  const connection = createConnection(server.url);
  try {
    const sale = await createPaidSale(connection, merchant.apiKey, amountCents);
    const hold = await createHold(connection, merchant.apiKey, { amountCents });
    await seedFinishedTransactions(sql, sale, count - 1);
    await seedFinishedTransactions(sql, hold.transactionNumber, count - 1);
    const sales = await sql`select transaction_number from transactions
      where processor_reference = (select processor_reference from transactions where transaction_number = ${sale})`;
    const holds = await sql`select tok.token from payment_tokens tok
      where tok.type = 'authorization' and tok.processor_reference = (select processor_reference from payment_tokens where token = ${hold.token})`;
    if (sales.length !== count || holds.length !== count) throw new Error(`seeded ${sales.length} sales and ${holds.length} holds, not ${count} of each`);
    return { sales: sales.map((r) => String(r.transaction_number)), holds: holds.map((r) => String(r.token)) };
  } finally {
    connection.close();
  }
}
