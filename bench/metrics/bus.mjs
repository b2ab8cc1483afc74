// Metric 12: the update bus. (a) Lifecycle throughput with the update's NOTIFY inside the change's transaction (as
// before the realtime outbox) against after its commit (as the service does now), in alternating rounds of one run:
// two servers of the same build, each on a database of its own; on the "inside" one a trigger turns the event
// statement's outbox row into a NOTIFY in the change's own transaction (and skips the row), as the event statement
// used to send it. Its instance still publishes after the commit as well (a second, redundant NOTIFY outside the
// transaction, and a delete that finds nothing), so the "inside" side does the old NOTIFY on top of the new path's
// work minus the outbox row. (b) The bus's update latency: from a change's request sent to one instance to its update
// on a merchant socket of another instance, changes one at a time, on the postgres bus and on a NATS server the
// harness starts (Debian's nats-server; not measured without it).
import os from 'node:os';
import WebSocket from 'ws';
import postgres from 'postgres';
import { NATS_SERVER_BINARY, startNatsServer } from '../../server/src/test/nats-server.ts';
import { createStore } from '../database.mjs';
import { Latencies } from '../latencies.mjs';
import { createConnection } from '../load-client.mjs';
import { initAuthorization, merchantHeaders, runLifecycle } from '../lifecycle.mjs';
import { createMerchant } from '../merchant.mjs';
import { startServer } from '../server-process.mjs';
import { lifecycleTarget } from './lifecycle.mjs';

const NOTIFY_INSIDE = `
  create function bench_notify_inside() returns trigger language plpgsql as $$
  begin
    perform pg_notify('svc_events', new.notice);
    return null;
  end $$;
  create trigger bench_notify_inside before insert on event_publications for each row execute function bench_notify_inside();`;

/**
 * @param {{ storeKind: string, config: { warmupMs: number, rounds: number, roundMs: number, updates: number }, log: (line: string) => void, cleanup: (() => Promise<void>)[] }} context
 */
export async function measureBus({ storeKind, config, log, cleanup }) {
  const loadAverage = os.loadavg()[0];
  const stores = await Promise.all([createStore(storeKind, 'bus-after'), createStore(storeKind, 'bus-inside')]);
  const [afterStore, insideStore] = stores;
  const disposeStores = async () => {
    await Promise.all(stores.map((store) => store.dispose()));
  };
  cleanup.push(disposeStores);
  /** @type {Awaited<ReturnType<typeof startServer>>[]} */
  const running = [];
  /** A server on `store`; `joining`: the store's database is already up (an embedded one is the first server's), so it connects to it. */
  const started = async (store, name, env = {}, { joining = false } = {}) => {
    const server = await startServer(store, { name, env, ...(joining ? { databaseUrl: store.url() } : {}) });
    running.push(server);
    return server;
  };
  const stop = async (...servers) => {
    for (const server of servers) {
      running.splice(running.indexOf(server), 1);
      await server.stop();
    }
  };
  try {
    // A server on each database, started together; then a second one on the first database, which hears the first
    // one's updates on the postgres bus.
    const [after, inside] = await Promise.all([started(afterStore, 'server-bus-after'), started(insideStore, 'server-bus-inside')]);
    const hearing = await started(afterStore, 'server-bus-hearing', {}, { joining: true });
    // The servers have migrated their databases: the outbox table is there for the trigger.
    const sql = postgres(insideStore.url(), { max: 1, onnotice: () => undefined });
    try {
      await sql.unsafe(NOTIFY_INSIDE);
    } finally {
      await sql.end({ timeout: 2 });
    }
    const [afterMerchant, insideMerchant] = await Promise.all([createMerchant(after), createMerchant(inside)]);
    const throughput = await notifyPlacement({ after, inside, afterMerchant, insideMerchant, config, log });
    await stop(inside);
    const latency = { postgres: await busLatency({ making: after, hearing, merchant: afterMerchant, config, log, bus: 'postgres' }) };
    await stop(hearing);
    if (!NATS_SERVER_BINARY) {
      latency.nats = { measured: false, reason: 'no nats-server on PATH or at /usr/sbin/nats-server' };
    } else {
      const nats = await startNatsServer();
      try {
        const env = { REALTIME_BUS: 'nats', NATS_URL: nats.url };
        // Both on the first database (whose first server, still running, keeps an embedded one up), on the NATS server.
        const [making, hearingOnNats] = await Promise.all([
          started(afterStore, 'server-bus-nats-1', env, { joining: true }),
          started(afterStore, 'server-bus-nats-2', env, { joining: true }),
        ]);
        latency.nats = await busLatency({ making, hearing: hearingOnNats, merchant: afterMerchant, config, log, bus: 'nats' });
        await stop(making, hearingOnNats);
      } finally {
        await nats.stop();
      }
    }
    return { loadAverage, throughput, latency };
  } finally {
    // The last started first: a server that owns an embedded database stops after those that joined it.
    await stop(...[...running].reverse());
    cleanup.splice(cleanup.indexOf(disposeStores), 1);
    await disposeStores();
  }
}

async function notifyPlacement({ after, inside, afterMerchant, insideMerchant, config, log }) {
  const targets = [
    lifecycleTarget(after.url, (connection, record) => runLifecycle(connection, afterMerchant.apiKey, { record }), null),
    lifecycleTarget(inside.url, (connection, record) => runLifecycle(connection, insideMerchant.apiKey, { record }), null),
  ];
  try {
    log('  warm-up…');
    for (const target of targets) await target.round(config.warmupMs, { measure: false });
    for (let r = 0; r < config.rounds; r++) {
      const order = r % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) await target.round(config.roundMs);
      const [a, i] = targets.map((target) => target.rounds.at(-1)?.perSecond.toFixed(1));
      log(`  round ${r + 1}/${config.rounds}: NOTIFY after the commit ${a} seq/s, inside the transaction ${i} seq/s`);
    }
  } finally {
    for (const target of targets) target.close();
  }
  const [afterTotals, insideTotals] = targets.map((target) => target.totals());
  return {
    clients: 8,
    after: { perSecond: afterTotals.perSecond, failed: afterTotals.failed, rounds: targets[0].rounds.map((r) => r.perSecond) },
    inside: { perSecond: insideTotals.perSecond, failed: insideTotals.failed, rounds: targets[1].rounds.map((r) => r.perSecond) },
  };
}

async function busLatency({ making, hearing, merchant, config, log, bus }) {
  const socket = await subscribedMerchantSocket(hearing.url, merchant.apiKey);
  const http = createConnection(making.url);
  const latencies = new Latencies();
  const answers = new Latencies();
  try {
    log(`  ${config.updates} changes on one instance, heard on another's socket, on the ${bus} bus…`);
    for (let i = 0; i < config.updates + 5; i++) {
      const sentAt = performance.now();
      const heard = new Promise((resolve) => (socket.onUpdate = resolve));
      // The first five are a warm-up.
      await initAuthorization(http, merchant.apiKey, { onTime: (ms) => i >= 5 && answers.add(ms) });
      const heardAt = await withTimeout(heard, 10_000, `the ${bus} bus delivered no update within 10 s`);
      if (i >= 5) latencies.add(heardAt - sentAt);
    }
  } finally {
    http.close();
    socket.close();
  }
  return { measured: true, updates: config.updates, latencies: latencies.summary(), answers: answers.summary() };
}

/** A merchant socket subscribed to its merchant's scope; `onUpdate` is called with the time each update arrives. */
async function subscribedMerchantSocket(baseUrl, apiKey) {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, { headers: merchantHeaders(apiKey), perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  /** @type {{ onUpdate: (at: number) => void, close(): void }} */
  const socket = { onUpdate: () => undefined, close: () => ws.terminate() };
  await new Promise((resolve) => {
    ws.on('message', (data) => {
      const text = data.toString();
      if (text.includes('"type":"subscribed"')) resolve(undefined);
      else if (text.includes('"type":"transaction.updated"')) socket.onUpdate(performance.now());
    });
    ws.send(JSON.stringify({ type: 'subscribe', scope: 'merchant' }));
  });
  return socket;
}

function withTimeout(promise, ms, message) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() => clearTimeout(timer));
}
