// Metric 4: callback delivery to a local receiver (its own process).
//  - latency: lifecycles with a callbackURL at `clients` concurrent clients; each consumer payment and capture
//    queues one delivery; latency = receipt time − the update's `updatedAt` (both on this machine's clock).
//  - throughput: a backlog, as after a receiver outage: every delivery made so far is started again, as
//    `POST /callbacks/:id/redeliver` does, and, up to `backlog`, deliveries are queued for earlier events (the
//    rows `recordChange` writes for an update with a callbackURL, with the event's real payload), all in one
//    transaction with the dispatchers' wake-up notification; the running dispatcher's drain is timed from that
//    commit to the last receipt, and the CPU it took (server process and PostgreSQL backends) is read from /proc.
import { startCallbackReceiver } from '../callback-receiver-client.mjs';
import { Latencies } from '../latencies.mjs';
import { createConnection, runClosedLoop } from '../load-client.mjs';
import { runLifecycle } from '../lifecycle.mjs';
import { cpuSampler } from '../cpu-usage.mjs';
import { nowUs, profileServer } from '../cpu-profile.mjs';
import { waitFor } from '../wait-for.mjs';

async function deliveryCounts(sql, merchantId) {
  const [row] = await sql`
    select count(*)::int as total, count(*) filter (where state = 'succeeded')::int as succeeded
    from callback_deliveries where merchant_id = ${merchantId}`;
  return row;
}

async function latencyPhase({ server, merchant, sql, receiver, clients, durationMs }) {
  await receiver.reset();
  const connections = Array.from({ length: clients }, () => createConnection(server.url));
  const before = await deliveryCounts(sql, merchant.merchantId);
  const windowStart = Date.now();
  try {
    await runClosedLoop({ clients, durationMs, iteration: (i) => runLifecycle(connections[i], merchant.apiKey, { callbackURL: receiver.url }) });
  } finally {
    connections.forEach((c) => c.close());
  }
  const queued = (await deliveryCounts(sql, merchant.merchantId)).total - before.total;
  await waitFor(async () => (await receiver.count()) >= queued, 60_000, `${queued} callbacks to arrive`);
  const receipts = await receiver.receipts();
  const latencies = new Latencies();
  for (const [receivedAt, updatedAt] of receipts) latencies.add(receivedAt - updatedAt);
  const inWindow = receipts.filter(([receivedAt]) => receivedAt <= windowStart + durationMs).length;
  return { clients, deliveries: receipts.length, perSecondDuringLoad: inWindow / (durationMs / 1000), latencies: latencies.summary() };
}

/**
 * Queues the backlog (see above) in one transaction with the wake-up notification, waits until the receiver has
 * every delivery, and times it from the commit to the last receipt.
 */
async function drainBacklog({ merchant, sql, receiver, backlog }) {
  const { total } = await waitFor(
    async () => {
      const counts = await deliveryCounts(sql, merchant.merchantId);
      return counts.total === counts.succeeded ? counts : null;
    },
    60_000,
    'every delivery to succeed',
  );
  await receiver.reset();
  let committedAt = 0;
  await sql.begin(async (tx) => {
    await tx`
      update callback_deliveries set state = 'pending', next_attempt_at = now(), schedule_position = 0, window_started_at = null, updated_at = now(), url = ${receiver.url}
      where merchant_id = ${merchant.merchantId}`;
    await tx`
      insert into callback_deliveries (event_id, transaction_id, merchant_id, sequence, url, method, next_attempt_at, created_at, updated_at)
      select e.id, e.transaction_id, e.merchant_id, e.sequence, ${receiver.url}, 'POST', now(), now(), now()
      from transaction_events e
      where e.merchant_id = ${merchant.merchantId} and not exists (select 1 from callback_deliveries d where d.event_id = e.id)
      limit ${Math.max(0, backlog - total)}`;
    await tx`select pg_notify('svc_callbacks_wake', '')`;
    committedAt = Date.now();
  });
  const { total: queued } = await deliveryCounts(sql, merchant.merchantId);
  await waitFor(async () => (await receiver.count()) >= queued, 120_000, `${queued} deliveries of the backlog`);
  const receipts = await receiver.receipts();
  const lastReceipt = Math.max(...receipts.map(([receivedAt]) => receivedAt));
  const seconds = (lastReceipt - committedAt) / 1000;
  return { deliveries: queued, received: receipts.length, distinct: new Set(receipts.map(([, , id]) => id)).size, seconds, perSecond: queued / seconds };
}

/** On the running `server`, which must be the only one of its store (no other dispatcher may take deliveries). */
export async function measureCallbacks({ server, merchant, sql, config, log }) {
  const receiver = await startCallbackReceiver();
  try {
    log('  deliveries under lifecycle load (1 client, then 8)…');
    const light = await latencyPhase({ server, merchant, sql, receiver, clients: 1, durationMs: config.lightMs });
    const loaded = await latencyPhase({ server, merchant, sql, receiver, clients: 8, durationMs: config.loadedMs });
    log(`  draining a backlog of up to ${config.backlog} deliveries…`);
    const cpu = cpuSampler({ pid: server.pid, sql });
    const cpuBefore = await cpu.sample();
    const drain = await drainBacklog({ merchant, sql, receiver, backlog: config.backlog });
    const used = cpu.between(cpuBefore, await cpu.sample());
    drain.serverCpuPerDeliveryMs = used.serverMs / drain.deliveries;
    drain.databaseCpuPerDeliveryMs = used.databaseMs / drain.deliveries;
    return { light, loaded, drain };
  } finally {
    await receiver.stop();
  }
}

/** The same drain again on a server started with --cpu-prof; every other server of `store` must be stopped. */
export async function profileCallbackDrain({ store, merchant, sql, config }) {
  const receiver = await startCallbackReceiver();
  try {
    return await profileServer(store, 'server-callbacks-profiled', async () => {
      const fromUs = nowUs();
      const again = await drainBacklog({ merchant, sql, receiver, backlog: config.backlog });
      return { fromUs, toUs: nowUs(), perSecond: again.perSecond, what: `the drain of ${again.deliveries} deliveries` };
    });
  } finally {
    await receiver.stop();
  }
}
