// Metric 8: what observability costs. The lifecycle throughput (8 clients, as metric 1) of three servers on the same
// database in alternating rounds: one with neither metrics nor traces, one with the Prometheus metrics on
// (METRICS_PORT, scraped every 5 s as a Prometheus would, a little more often than its default), one with tracing on
// (OTEL_EXPORTER_OTLP_ENDPOINT) exporting to a local OTLP/HTTP collector that accepts every export and discards it. Goals: metrics
// cost at most 3 % of the throughput, tracing at most 10 %. Beside the throughput, the CPU per sequence of each server
// process and of its PostgreSQL backends, which a shared machine's noise moves much less (cpu-usage.mjs).
import http from 'node:http';
import { cpuSampler } from '../cpu-usage.mjs';
import { runLifecycle } from '../lifecycle.mjs';
import { freePort, startServer } from '../server-process.mjs';
import { lifecycleTarget } from './lifecycle.mjs';

const SCRAPE_EVERY_MS = 5000;

/** An OTLP/HTTP collector that answers every export with 200 and keeps nothing but counts. */
async function startDiscardingCollector() {
  const counts = { requests: 0, bytes: 0 };
  const server = http.createServer((req, res) => {
    req.on('data', (chunk) => (counts.bytes += chunk.length));
    req.on('end', () => {
      counts.requests += 1;
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' }).end(req.headers['content-type']?.includes('json') ? '{}' : '');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${address.port}`, counts, close: () => new Promise((resolve) => server.close(() => resolve(undefined))) };
}

/**
 * @param {{ server: { store: any }, merchant: { apiKey: string }, sql: import('postgres').Sql, config: { warmupMs: number, rounds: number, roundMs: number }, log: (line: string) => void }} context
 */
export async function measureObservability({ server, merchant, sql, config, log }) {
  const collector = await startDiscardingCollector();
  const metricsPort = await freePort();
  /** @type {{ stop(): Promise<unknown> }[]} */
  const started = [];
  /** @type {ReturnType<typeof lifecycleTarget>[]} */
  const targets = [];
  let scrapes = 0;
  let scraping = true;
  /** @type {unknown} */
  let scrapeError = null;
  let scraper = Promise.resolve();
  try {
    log('  three servers: off, metrics on, tracing on (to a discarding collector)…');
    const [off, withMetrics, withTracing] = await Promise.all([
      startServer(server.store, { name: 'observability-off' }),
      startServer(server.store, { name: 'observability-metrics', env: { METRICS_PORT: String(metricsPort) } }),
      startServer(server.store, { name: 'observability-tracing', env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url } }),
    ]);
    started.push(off, withMetrics, withTracing);
    scraper = (async () => {
      while (scraping) {
        const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
        if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
        await res.text();
        scrapes += 1;
        await new Promise((resolve) => setTimeout(resolve, SCRAPE_EVERY_MS));
      }
    })().catch((error) => {
      scrapeError = error;
    });
    const sequence = (connection, record) => runLifecycle(connection, merchant.apiKey, { record });
    // Each server's pool is named `svc-<its pid>-…` (server/src/db/storage.ts): its own backends, on the shared database.
    const cpu = (/** @type {{ pid: number | undefined }} */ child) =>
      child.pid ? cpuSampler({ pid: child.pid, sql, applicationPrefix: `svc-${child.pid}-` }) : null;
    for (const child of [off, withMetrics, withTracing]) targets.push(lifecycleTarget(child.url, sequence, cpu(child)));
    for (const target of targets) await target.round(config.warmupMs, { measure: false });
    for (let r = 0; r < config.rounds; r++) {
      // Each round starts with the next server, as metric 1 does, so that all see the same machine noise.
      for (let i = 0; i < targets.length; i++) await targets[(i + r) % targets.length].round(config.roundMs);
      const [o, m, t] = targets.map((target) => target.rounds.at(-1)?.perSecond.toFixed(1));
      log(`  round ${r + 1}/${config.rounds}: off ${o}, metrics ${m}, tracing ${t} seq/s`);
    }
  } finally {
    scraping = false;
    for (const target of targets) target.close();
    for (const child of started) await child.stop();
    await scraper;
    await collector.close();
  }
  if (scrapeError) throw scrapeError;
  const [off, metricsOn, tracingOn] = targets.map((target) => target.totals());
  if (collector.counts.requests === 0) throw new Error('the tracing server exported nothing to the discarding collector');
  /** CPU per sequence (server process, its PostgreSQL backends) more than the server with both off's, as a share. */
  const cpuCost = (/** @type {typeof off} */ on) =>
    on.cpuPerSequence && off.cpuPerSequence
      ? { server: on.cpuPerSequence.serverMs / off.cpuPerSequence.serverMs - 1, database: on.cpuPerSequence.databaseMs / off.cpuPerSequence.databaseMs - 1 }
      : null;
  return {
    off: { perSecond: off.perSecond, completed: off.completed, failed: off.failed, cpuPerSequence: off.cpuPerSequence },
    metrics: { perSecond: metricsOn.perSecond, completed: metricsOn.completed, failed: metricsOn.failed, cpuPerSequence: metricsOn.cpuPerSequence, scrapes },
    tracing: {
      perSecond: tracingOn.perSecond,
      completed: tracingOn.completed,
      failed: tracingOn.failed,
      cpuPerSequence: tracingOn.cpuPerSequence,
      exports: collector.counts.requests,
      exportedBytes: collector.counts.bytes,
    },
    rounds: config.rounds,
    roundMs: config.roundMs,
    metricsCost: 1 - metricsOn.perSecond / off.perSecond,
    tracingCost: 1 - tracingOn.perSecond / off.perSecond,
    metricsCpuCost: cpuCost(metricsOn),
    tracingCpuCost: cpuCost(tracingOn),
  };
}
