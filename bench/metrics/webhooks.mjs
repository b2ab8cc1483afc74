// Metric 14: webhook endpoints' fan-out. A merchant of its own on the main server registers three webhook endpoints
// (`POST /webhook-endpoints`, every event type), each a receiver in a process of its own on loopback
// (callback-receiver.mjs, as metric 4's). (a) Under load: 8 clients run the lifecycle; every event goes to all three;
// its latency is receipt − the transaction's `updatedAt` (one machine, one clock), its rate the receipts inside the
// load's window. (b) A backlog, as after the three endpoints' outage: every delivery made so far is started again
// (as `POST /events/:id/redeliver` would, one by one) in one transaction with the dispatchers' wake-up notification,
// and the drain is timed from that commit to the last receipt at any of the three; again in a few rounds, each
// once the last has ended, as the backlog of one short load is small.
import os from 'node:os';
import { startCallbackReceiver } from '../callback-receiver-client.mjs';
import { Latencies } from '../latencies.mjs';
import { createConnection, runClosedLoop } from '../load-client.mjs';
import { callEndpoint, merchantHeaders, runLifecycle } from '../lifecycle.mjs';
import { createMerchant } from '../merchant.mjs';
import { waitFor } from '../wait-for.mjs';

export const ENDPOINTS = 3;
const CLIENTS = 8;

async function endpointDeliveries(sql, merchantId) {
  const [row] = await sql`
    select count(*)::int as total, count(*) filter (where state = 'succeeded')::int as succeeded,
           count(distinct merchant_event_id)::int as events
    from callback_deliveries where merchant_id = ${merchantId} and endpoint_id is not null`;
  return row;
}

/**
 * @param {{ server: { url: string }, sql: any, config: { loadedMs: number, backlog: number, drainRounds: number }, log: (line: string) => void }} context
 */
export async function measureWebhookFanOut({ server, sql, config, log }) {
  const loadAverage = os.loadavg()[0];
  const merchant = await createMerchant(server, 'Bench webhooks');
  const receivers = [];
  try {
    for (let i = 0; i < ENDPOINTS; i++) receivers.push(await startCallbackReceiver());
    const http = createConnection(server.url);
    try {
      for (const receiver of receivers) {
        await callEndpoint(http, 'createWebhookEndpoint', {
          body: { url: receiver.url, enabledEvents: ['*'], description: 'bench receiver' },
          headers: merchantHeaders(merchant.apiKey),
        });
      }
    } finally {
      http.close();
    }
    const total = async () => (await Promise.all(receivers.map((r) => r.count()))).reduce((a, b) => a + b, 0);
    const allReceipts = async () => (await Promise.all(receivers.map((r) => r.receipts()))).flat();

    log(`  ${CLIENTS} clients of lifecycle load for ${config.loadedMs / 1000} s, every event to ${ENDPOINTS} endpoints…`);
    const connections = Array.from({ length: CLIENTS }, () => createConnection(server.url));
    const windowStart = Date.now();
    let load;
    try {
      load = await runClosedLoop({ clients: CLIENTS, durationMs: config.loadedMs, iteration: (i) => runLifecycle(connections[i], merchant.apiKey) });
    } finally {
      connections.forEach((c) => c.close());
    }
    const queued = await endpointDeliveries(sql, merchant.merchantId);
    await waitFor(async () => (await total()) >= queued.total, 60_000, `${queued.total} webhook deliveries to arrive`);
    const receipts = await allReceipts();
    const latencies = new Latencies();
    for (const [receivedAt, updatedAt] of receipts) latencies.add(receivedAt - updatedAt);
    const inWindow = receipts.filter(([receivedAt]) => receivedAt <= windowStart + config.loadedMs).length;
    const loaded = {
      clients: CLIENTS,
      lifecycles: load.completed,
      events: queued.events,
      deliveries: receipts.length,
      perSecondDuringLoad: inWindow / (config.loadedMs / 1000),
      latencies: latencies.summary(),
    };

    log(
      `  draining a backlog of up to ${config.backlog} deliveries to the ${ENDPOINTS} endpoints, ${config.drainRounds === 1 ? 'once' : `${config.drainRounds} times`}…`,
    );
    /** @type {{ deliveries: number, events: number, perReceiver: number[], seconds: number, perSecond: number }[]} */
    const rounds = [];
    for (let round = 0; round < config.drainRounds; round++) {
      await waitFor(
        async () => {
          const counts = await endpointDeliveries(sql, merchant.merchantId);
          return counts.total === counts.succeeded ? counts : null;
        },
        60_000,
        'every webhook delivery to succeed',
      );
      await Promise.all(receivers.map((r) => r.reset()));
      let committedAt = 0;
      let backlog = 0;
      await sql.begin(async (tx) => {
        const rows = await tx`
          update callback_deliveries set state = 'pending', next_attempt_at = now(), schedule_position = 0, window_started_at = null, updated_at = now()
          where id in (
            select id from callback_deliveries where merchant_id = ${merchant.merchantId} and endpoint_id is not null order by created_at limit ${config.backlog}
          )
          returning id`;
        backlog = rows.length;
        await tx`select pg_notify('svc_callbacks_wake', '')`;
        committedAt = Date.now();
      });
      await waitFor(async () => (await total()) >= backlog, 120_000, `${backlog} deliveries of the backlog`);
      const drained = await allReceipts();
      const seconds = (Math.max(...drained.map(([receivedAt]) => receivedAt)) - committedAt) / 1000;
      rounds.push({
        deliveries: backlog,
        events: new Set(drained.map(([, , id]) => id)).size,
        perReceiver: await Promise.all(receivers.map((r) => r.count())),
        seconds,
        perSecond: backlog / seconds,
      });
    }
    const sum = (key) => rounds.reduce((n, r) => n + r[key], 0);
    const drain = { rounds, deliveries: sum('deliveries'), events: sum('events'), seconds: sum('seconds'), perSecond: sum('deliveries') / sum('seconds') };
    return { loadAverage, endpoints: ENDPOINTS, loadedMs: config.loadedMs, loaded, drain };
  } finally {
    await Promise.all(receivers.map((r) => r.stop()));
  }
}
