// Metric 8: refunds per second over a backlog of paid sales, and the refunds' p99 under the 8-client load, beside
// captures measured in the same run. Rounds of refunds and of captures alternate (each round pair starting with the
// other kind than the last), so both see the same machine. Each refund gives back a whole sale of its own (that
// sale's only refund), each capture takes a whole hold of its own: no row is met twice, so no transaction's history
// grows during the run and one refund is measured against one capture. The backlogs are copies of one paid sale and
// one hold (settlement-load.mjs). Beside the rates: the CPU per operation of the server process and of its
// PostgreSQL backends (/proc), and what one of each costs the database: statements and round trips (a counting
// proxy) and rows written (by xmin).
import { cpuSampler } from '../cpu-usage.mjs';
import { capture } from '../lifecycle.mjs';
import { createConnection } from '../load-client.mjs';
import { startCountedServer } from '../write-count.mjs';
import { CLIENTS, clientConnections, operationLoad, refund, seedBacklogs } from './settlement-load.mjs';

/** Each sale and each hold: 100.00 USD, refunded or captured whole. */
const AMOUNT_CENTS = 10_000;

const XID_MASK = 4294967295n;

/**
 * @param {{ server: { url: string, pid: number, store: { label: string, url(): string } }, merchant: { apiKey: string }, sql: import('postgres').Sql, config: { backlog: number, countSamples: number, warmupMs: number, rounds: number, roundMs: number }, log: (line: string) => void }} context
 */
export async function measureRefunds({ server, merchant, sql, config, log }) {
  log(`  a backlog of ${config.backlog} paid sales and ${config.backlog} holds (one of each through HTTP, copied in the database)…`);
  const { sales, holds } = await seedBacklogs(server, merchant, sql, config.backlog, AMOUNT_CENTS);
  log(`  statements, round trips and rows of ${config.countSamples} refunds and ${config.countSamples} captures…`);
  const wire = await countPerRequest(server.store, sql, merchant.apiKey, config.countSamples, sales, holds);
  let nextSale = config.countSamples + 1;
  let nextHold = config.countSamples + 1;
  const take = (/** @type {string[]} */ backlog, /** @type {number} */ at, /** @type {string} */ what) => {
    if (at >= backlog.length) throw new Error(`the backlog of ${backlog.length} ${what} ran out: raise its size in bench/run.mjs`);
    return backlog[at];
  };
  const connections = clientConnections(server.url);
  // The server's pool is named `svc-<its pid>-…` (server/src/db/storage.ts): its own backends, not the counting server's.
  const cpu = cpuSampler({ pid: server.pid, sql, applicationPrefix: `svc-${server.pid}-` });
  const loads = {
    refunds: operationLoad((i, onTime) => refund(connections[i], merchant.apiKey, take(sales, nextSale++, 'paid sales'), AMOUNT_CENTS, onTime), cpu),
    captures: operationLoad((i, onTime) => capture(connections[i], merchant.apiKey, take(holds, nextHold++, 'holds'), AMOUNT_CENTS, { onTime }), cpu),
  };
  try {
    await loads.captures.round(config.warmupMs, { measure: false });
    await loads.refunds.round(config.warmupMs, { measure: false });
    for (let r = 0; r < config.rounds; r++) {
      const order = r % 2 === 0 ? /** @type {const} */ (['refunds', 'captures']) : /** @type {const} */ (['captures', 'refunds']);
      for (const kind of order) await loads[kind].round(config.roundMs);
      const [f, c] = [loads.refunds, loads.captures].map((l) => l.totals().perRound.at(-1)?.toFixed(1));
      log(`  round ${r + 1}/${config.rounds}: refunds ${f}/s, captures ${c}/s`);
    }
  } finally {
    connections.close();
  }
  const refunds = loads.refunds.totals();
  const captures = loads.captures.totals();
  return {
    clients: CLIENTS,
    amountCents: AMOUNT_CENTS,
    backlog: config.backlog,
    used: { sales: nextSale, holds: nextHold },
    rounds: config.rounds,
    roundMs: config.roundMs,
    refunds,
    captures,
    ratio: refunds.perSecond / captures.perSecond,
    roundRatios: refunds.perRound.map((f, i) => f / captures.perRound[i]),
    wire,
  };
}

/**
 * What one refund and one capture cost the database, on a server of its own whose connections go through the counting
 * proxy: `samples` of each, one after another, on sales and holds of the backlog (the first of each, untimed, opens the
 * connections and prepares the statements). Rows: those whose last version a sample wrote (xmin), inserted or updated.
 * @param {{ label: string, url(): string }} store
 * @param {import('postgres').Sql} sql
 * @param {string} apiKey
 * @param {number} samples
 * @param {string[]} sales
 * @param {string[]} holds
 */
async function countPerRequest(store, sql, apiKey, samples, sales, holds) {
  const counted = await startCountedServer(store);
  const connection = createConnection(counted.server.url);
  try {
    /** @param {(i: number) => Promise<unknown>} operation */
    const count = async (operation) => {
      await operation(0);
      const tables = (await sql`select relname from pg_stat_user_tables where schemaname = 'public' order by relname`).map((r) => String(r.relname));
      const before = await rowCounts(sql, tables, 0n);
      const [{ txid }] = await sql`select txid_current()::text as txid`;
      const xid = BigInt(txid) & XID_MASK;
      const wireBefore = counted.counter.read();
      for (let i = 1; i <= samples; i++) await operation(i);
      const wireAfter = counted.counter.read();
      const after = await rowCounts(sql, tables, xid);
      const written = tables.flatMap((t) => {
        const { n, written: last } = after.get(t) ?? { n: 0, written: 0 };
        const inserted = n - (before.get(t)?.n ?? 0);
        return last > 0 ? [{ table: t, ins: inserted / samples, upd: (last - inserted) / samples }] : [];
      });
      return {
        statements: (wireAfter.statements - wireBefore.statements) / samples,
        roundTrips: (wireAfter.roundTrips - wireBefore.roundTrips) / samples,
        rows: written.reduce((n, t) => n + t.ins + t.upd, 0),
        tables: written,
      };
    };
    return {
      samples,
      refund: await count((i) => refund(connection, apiKey, sales[i], AMOUNT_CENTS)),
      capture: await count((i) => capture(connection, apiKey, holds[i], AMOUNT_CENTS)),
    };
  } finally {
    connection.close();
    await counted.stop();
  }
}

/**
 * Every table's row count, and how many of its rows were last written after `xid`.
 * @param {import('postgres').Sql} sql
 * @param {string[]} tables
 * @param {bigint} xid
 */
async function rowCounts(sql, tables, xid) {
  const parts = tables.map((t, i) => `select ${i} as i, count(*)::int as n, count(*) filter (where xmin::text::bigint > $1)::int as written from "${t}"`);
  const rows = await sql.unsafe(parts.join(' union all '), [String(xid)]);
  return new Map(rows.map((r) => [tables[Number(r.i)], { n: Number(r.n), written: Number(r.written) }]));
}
