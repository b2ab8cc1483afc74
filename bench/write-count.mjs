// What each request of the lifecycle costs the database, measured rather than read off the code, on a server of
// its own whose database connections go through the counting proxy (pg-wire-counter.mjs), `samples` requests of
// one step after another, each on a different transaction:
//  - rows written: every row version a transaction writes carries that transaction's id (xmin); the rows of each
//    table whose xmin is newer than the step's start are the rows the step inserted or updated; the growth of
//    the row count is the inserts, the rest updates. Exact and immediate.
//  - SQL statements executed and round trips to PostgreSQL, from the proxy.
import { createConnection } from './load-client.mjs';
import { capture, initAuthorization, payLink, readTransaction } from './lifecycle.mjs';
import { startWireCounter } from './pg-wire-counter.mjs';
import { startServer } from './server-process.mjs';
import { startReferenceServer } from './reference-client.mjs';

const XID_MASK = 4294967295n;

async function userTables(sql) {
  return (await sql`select relname from pg_stat_user_tables where schemaname = 'public' order by relname`).map((r) => r.relname);
}

/** One statement for every table: its row count and how many of its rows were written after `xid`. */
async function countRows(sql, tables, xid) {
  const parts = tables.map((t, i) => `select ${i} as i, count(*)::int as n, count(*) filter (where xmin::text::bigint > $1)::int as written from "${t}"`);
  const rows = await sql.unsafe(parts.join(' union all '), [String(xid)]);
  return new Map(rows.map((r) => [tables[r.i], { n: r.n, written: r.written }]));
}

async function snapshot(sql) {
  const tables = await userTables(sql);
  const [{ txid }] = await sql`select txid_current()::text as txid`;
  const xid = BigInt(txid) & XID_MASK;
  const counts = new Map([...(await countRows(sql, tables, xid))].map(([t, { n }]) => [t, n]));
  return { xid, counts };
}

function rowsWrittenSince(sql, before) {
  return countRows(sql, [...before.counts.keys()], before.xid);
}

function rowsPerRequest(before, after, samples) {
  const tables = [];
  let rows = 0;
  for (const [table, { n, written }] of after) {
    if (written === 0) continue;
    const inserted = n - before.counts.get(table);
    tables.push({ table, ins: inserted / samples, upd: (written - inserted) / samples });
    rows += written / samples;
  }
  return { rows, tables };
}

function wirePerRequest(counter, before, after, samples) {
  const texts = [...counter.textsBetween(before, after)].map(([text, n]) => [text, n / samples]);
  return { statements: (after.statements - before.statements) / samples, roundTrips: (after.roundTrips - before.roundTrips) / samples, texts };
}

/** A server on `store` whose database connections go through the counting proxy. */
export async function startCountedServer(store) {
  const target = new URL(store.url());
  const counter = await startWireCounter(target.hostname, Number(target.port || 5432));
  const proxied = new URL(target);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(counter.port);
  try {
    const server = await startServer(store, { databaseUrl: proxied.toString(), name: 'server-counted' });
    return {
      server,
      counter,
      async stop() {
        await server.stop();
        await counter.close();
      },
    };
  } catch (error) {
    await counter.close();
    throw error;
  }
}

/**
 * Per step: `{ rows, tables: [{ table, ins, upd }], statements, roundTrips, texts: [[sql, perRequest]] }`,
 * measured on a counted server (startCountedServer).
 */
export async function measureWritesPerStep(counted, merchant, sql, samples = 20) {
  const { server, counter } = counted;
  const connection = createConnection(server.url);
  try {
    const result = {};
    const step = async (name, each) => {
      const before = await snapshot(sql);
      const wireBefore = counter.read();
      const out = [];
      for (let i = 0; i < samples; i++) out.push(await each(i));
      const wireAfter = counter.read();
      result[name] = { ...rowsPerRequest(before, await rowsWrittenSince(sql, before), samples), ...wirePerRequest(counter, wireBefore, wireAfter, samples) };
      return out;
    };
    // One untimed sequence first: connections are opened and statements prepared once, not per request.
    const first = await initAuthorization(connection, merchant.apiKey);
    await payLink(connection, first);
    const firstRead = await readTransaction(connection, merchant.apiKey, first.TransactionNumber);
    if (!firstRead.paymentDetails) throw new Error(`transaction ${first.TransactionNumber} has no token after the consumer paid`);
    await capture(connection, merchant.apiKey, firstRead.paymentDetails.token, 1000);

    const created = await step('init', () => initAuthorization(connection, merchant.apiKey));
    await step('pay', (i) => payLink(connection, created[i]));
    const read = await step('status', (i) => readTransaction(connection, merchant.apiKey, created[i].TransactionNumber));
    await step('capture', (i) => capture(connection, merchant.apiKey, read[i].paymentDetails.token, 1000));
    return result;
  } finally {
    connection.close();
  }
}

/** The same counts for the reference server (its statements and round trips per call), through the proxy. */
export async function measureReferenceWire(store, writesPerStep, samples = 20) {
  const target = new URL(store.url());
  const counter = await startWireCounter(target.hostname, Number(target.port || 5432));
  const proxied = new URL(target);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(counter.port);
  const reference = await startReferenceServer(proxied.toString(), writesPerStep);
  const connection = createConnection(reference.url);
  try {
    const result = {};
    const calls = {
      init: () => connection.request('POST', '/ref/init', { body: { amount: 1000 } }),
      pay: (item) => connection.request('POST', `/ref/pay/${item.id}`, { body: {} }),
      status: (item) => connection.request('GET', `/ref/items/${item.id}`),
      capture: (item) => connection.request('POST', `/ref/capture/${item.id}`, { body: {} }),
    };
    const warm = await calls.init();
    for (const name of ['pay', 'status', 'capture']) await calls[name](warm);
    const items = [];
    for (const name of ['init', 'pay', 'status', 'capture']) {
      const before = counter.read();
      for (let i = 0; i < samples; i++) {
        const answer = await calls[name](items[i]);
        if (name === 'init') items.push(answer);
      }
      result[name] = wirePerRequest(counter, before, counter.read(), samples);
    }
    return result;
  } finally {
    connection.close();
    await reference.stop();
    await counter.close();
  }
}

/** "transactions 1 update; transaction_events 1 insert" */
export function describeWrites({ tables }) {
  if (tables.length === 0) return 'none';
  return tables
    .map(({ table, ins, upd }) => {
      const parts = [ins && `${fmt(ins)} insert`, upd && `${fmt(upd)} update`].filter(Boolean);
      return `${table} ${parts.join(', ')}`;
    })
    .join('; ');
}

export const fmt = (n) => (Number.isNaN(n) ? 'n/a' : Number.isInteger(n) ? String(n) : n.toFixed(2));
