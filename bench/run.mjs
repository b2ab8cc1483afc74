#!/usr/bin/env node
// `pnpm bench`: measures the service (speed, scale, memory, SDK weight, the shopper's side in a browser) against a
// real PostgreSQL and rewrites BENCHMARKS.md. `pnpm bench --quick` runs every metric briefly (under a minute) and
// writes its report to a temporary file instead, so the test command keeps the harness working; it fails only when
// the harness breaks, never because a goal is missed. Options: --out=<file>, --only=<metric,…> (a full run of some
// metrics replaces them in an existing report and keeps the rest), --embedded (skip the local PostgreSQL).
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isInterrupted, onInterrupt, stopAllChildren } from './children.mjs';
import { profileLifecycle } from './cpu-profile.mjs';
import { connect, createStore, localPostgresAnswers, postgresVersion } from './database.mjs';
import { describeMachine } from './machine.mjs';
import { createMerchant } from './merchant.mjs';
import { measureBrowser } from './metrics/browser.mjs';
import { measureCallbacks, profileCallbackDrain } from './metrics/callbacks.mjs';
import { measureCaptures } from './metrics/capture.mjs';
import { measureBus } from './metrics/bus.mjs';
import { measureFailover } from './metrics/failover.mjs';
import { measureLifecycle } from './metrics/lifecycle.mjs';
import { measureObservability } from './metrics/observability.mjs';
import { measurePageTtfb } from './metrics/page-ttfb.mjs';
import { measureRefunds } from './metrics/refunds.mjs';
import { measureSdkWeight } from './metrics/sdk-weight.mjs';
import { measureStoreGrowth, prepareStoreGrowth } from './metrics/store-growth.mjs';
import { measureStripeConnector } from './metrics/stripe.mjs';
import { measureWebhookFanOut } from './metrics/webhooks.mjs';
import { measureWebsocketFanOut, profileWebsocketFanOut } from './metrics/websocket.mjs';
import { goals, mergeReport, renderReport } from './report.mjs';
import { browserFilesBuilt, LOG_LEVEL, ROOT, startServer } from './server-process.mjs';
import { startCountedServer } from './write-count.mjs';

const args = process.argv.slice(2);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = args.includes('--quick');
const only = option('only')?.split(',');
const METRICS = [
  'lifecycle',
  'capture',
  'store-growth',
  'callbacks',
  'websocket',
  'sdk-weight',
  'page-ttfb',
  'refunds',
  'observability',
  'browser',
  'failover',
  'bus',
  'stripe',
  'webhooks',
];
for (const name of only ?? []) {
  if (!METRICS.includes(name)) {
    process.stderr.write(`bench: --only: unknown metric ${name} (one of ${METRICS.join(', ')})\n`);
    process.exit(2);
  }
}
const wanted = (name) => !only || only.includes(name);
const out = option('out') ?? (quick ? path.join(os.tmpdir(), 'svc-bench-quick.md') : path.join(ROOT, 'BENCHMARKS.md'));

const CONFIG = quick
  ? {
      lifecycle: { writeSamples: 3, referenceWire: false, warmupMs: 300, rounds: 1, roundMs: 1500 },
      profile: false,
      capture: { holds: 40, holdsMaxMs: 3000, warmupMs: 300, durationMs: 1500 },
      refunds: { backlog: 1500, countSamples: 3, warmupMs: 300, rounds: 1, roundMs: 1000 },
      pageTtfb: { warmupMs: 300, durationMs: 1500 },
      observability: { warmupMs: 300, rounds: 1, roundMs: 1000 },
      browser: { runs: 2 },
      failover: { rounds: 1, capturedBefore: 4, capturedAfter: 4 },
      bus: { warmupMs: 300, rounds: 2, roundMs: 1000, updates: 10 },
      websocket: { subscribers: 100, updates: 5, gapMs: 50 },
      callbacks: { lightMs: 800, loadedMs: 1200, backlog: 200 },
      stripe: { warmup: 1, sequences: 3 },
      webhooks: { loadedMs: 1000, backlog: 200, drainRounds: 1 },
      // Quick: the two servers of metric 3 start with the main one (their idle ticks do not matter here).
      storeGrowth: { startEarly: true, seedCount: 2_000, warmupMs: 300, rounds: 1, roundMs: 1500, explainRepeat: 1, listRepeat: 3 },
    }
  : {
      lifecycle: { writeSamples: 20, referenceWire: true, warmupMs: 3000, rounds: 3, roundMs: 8000 },
      profile: true,
      capture: { holds: 2000, holdsMaxMs: 20_000, warmupMs: 2000, durationMs: 10_000 },
      refunds: { backlog: 25_000, countSamples: 20, warmupMs: 2000, rounds: 8, roundMs: 2000 },
      pageTtfb: { warmupMs: 2000, durationMs: 8000 },
      observability: { warmupMs: 2000, rounds: 6, roundMs: 8000 },
      browser: { runs: 30 },
      failover: { rounds: 3, capturedBefore: 16, capturedAfter: 16 },
      bus: { warmupMs: 2000, rounds: 6, roundMs: 5000, updates: 200 },
      websocket: { subscribers: 1000, updates: 30, gapMs: 100 },
      callbacks: { lightMs: 5000, loadedMs: 8000, backlog: 3000 },
      stripe: { warmup: 10, sequences: 150 },
      webhooks: { loadedMs: 8000, backlog: 6000, drainRounds: 4 },
      storeGrowth: { startEarly: false, seedCount: 100_000, warmupMs: 3000, rounds: 3, roundMs: 8000, explainRepeat: 5, listRepeat: 50 },
    };

const started = performance.now();
const log = (line) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

/** Clean-up in reverse order of creation: connections, then servers, then databases. Runs once, however often asked. */
const cleanup = [];
let cleaning = null;
function cleanUp() {
  cleaning ??= (async () => {
    while (cleanup.length > 0) {
      const step = cleanup.pop();
      await Promise.resolve()
        .then(step)
        .catch((error) => log(`clean-up: ${error.message}`));
    }
    await stopAllChildren();
  })();
  return cleaning;
}
onInterrupt(cleanUp);

const result = {
  command: `pnpm bench${quick ? ' --quick' : ''}${only ? ` --only=${only.join(',')}` : ''}`,
  date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  logLevel: LOG_LEVEL,
  errors: /** @type {string[]} */ ([]),
};

async function metric(name, title, run) {
  if (!wanted(name) || isInterrupted()) return undefined;
  log(`${title}…`);
  try {
    return await run();
  } catch (error) {
    log(`${title} failed: ${error.stack ?? error}`);
    result.errors.push(`${title}: ${String(error.message ?? error).split('\n')[0]}`);
    return undefined;
  }
}

/**
 * Metric 4 on a database and a server of its own: on the main ones its figures depended on the run's order (what
 * the earlier metrics left in the database, and the counted server's dispatcher claiming deliveries beside the
 * measured one). Its CPU profile, when a goal is missed, is taken with that server stopped.
 */
async function measureCallbacksAlone() {
  const store = await createStore(result.storeKind, 'callbacks');
  cleanup.push(() => store.dispose());
  const server = await startServer(store);
  cleanup.push(() => server.stop());
  const sql = connect(store.url(), 2);
  cleanup.push(() => sql.end({ timeout: 2 }));
  const merchant = await createMerchant(server);
  const measured = await measureCallbacks({ server, merchant, sql, config: CONFIG.callbacks, log });
  await server.stop();
  if (CONFIG.profile && goals({ callbacks: measured }).some((g) => g.ok === false)) {
    measured.profile = await metric('callbacks', '4. CPU profile of the callback drain (a goal was missed)', () =>
      profileCallbackDrain({ store, merchant, sql, config: CONFIG.callbacks }),
    );
  }
  return measured;
}

/** A promise started now and awaited later; a failure surfaces where it is awaited, not as an unhandled rejection. */
function early(start) {
  const promise = start();
  promise.catch(() => undefined);
  return promise;
}

try {
  result.storeKind = !args.includes('--embedded') && (await localPostgresAnswers()) ? 'local' : 'embedded';
  log(
    `${quick ? 'quick run' : 'full run'}; PostgreSQL: ${result.storeKind === 'local' ? '127.0.0.1:5432' : 'embedded (no PostgreSQL answers on 127.0.0.1:5432)'}`,
  );
  const growth = wanted('store-growth') && CONFIG.storeGrowth.startEarly ? early(() => prepareStoreGrowth({ storeKind: result.storeKind, cleanup })) : null;
  if (wanted('sdk-weight') || wanted('browser')) {
    log(quick ? 'the SDKs built where dist/ is missing…' : 'the SDKs built from the code as it is…');
    await browserFilesBuilt({ whenMissing: quick });
  }
  const store = await createStore(result.storeKind, 'main');
  cleanup.push(() => store.dispose());
  // Rows, statements and round trips per request are counted on a server whose database connections go through a
  // counting proxy. A full run starts one for that alone (with the main one, when the database exists already);
  // a quick run, where the throughput does not matter, runs everything on it, one start fewer.
  let counted = null;
  let server;
  if (quick && wanted('lifecycle') && result.storeKind === 'local') {
    counted = await startCountedServer(store);
    cleanup.push(() => counted.stop());
    server = counted.server;
  } else {
    if (wanted('lifecycle') && result.storeKind === 'local') counted = early(() => startCountedServer(store).then((c) => (cleanup.push(() => c.stop()), c)));
    server = await startServer(store);
    cleanup.push(() => server.stop());
  }
  const merchant = await createMerchant(server);
  const sql = connect(store.url(), 2);
  cleanup.push(() => sql.end({ timeout: 2 }));
  result.machine = describeMachine(await postgresVersion(store.url()));
  const context = { server, merchant, sql, log };
  // Quick: metric 3's servers started alongside; let them finish starting before anything is timed.
  if (growth) await growth.catch(() => undefined);

  result.lifecycle = await metric('lifecycle', '1. lifecycle throughput', () =>
    measureLifecycle({
      ...context,
      counted: counted ?? startCountedServer(store).then((c) => (cleanup.push(() => c.stop()), c)),
      config: CONFIG.lifecycle,
    }),
  );
  if (CONFIG.profile && result.lifecycle && goals({ lifecycle: result.lifecycle }).some((g) => g.ok === false)) {
    result.profile = await metric('lifecycle', '1. CPU profile of the lifecycle (a goal was missed)', () =>
      profileLifecycle({ store, merchant, durationMs: 8000 }),
    );
  }
  result.capture = await metric('capture', '2. capture throughput', () => measureCaptures({ ...context, config: CONFIG.capture }));
  result.refunds = await metric('refunds', '8. refund throughput', () => measureRefunds({ ...context, config: CONFIG.refunds }));
  result.observability = await metric('observability', '9. observability cost', () => measureObservability({ ...context, config: CONFIG.observability }));
  result.pageTtfb = await metric('page-ttfb', '7. hosted page time to first byte', () => measurePageTtfb({ ...context, config: CONFIG.pageTtfb }));
  result.websocket = await metric('websocket', '5. websocket fan-out', () => measureWebsocketFanOut({ ...context, config: CONFIG.websocket }));
  if (CONFIG.profile && result.websocket?.measured && goals({ websocket: result.websocket }).some((g) => g.ok === false)) {
    result.websocket.profile = await metric('websocket', '5. CPU profile of the fan-out (a goal was missed)', () =>
      profileWebsocketFanOut({ store, merchant, config: CONFIG.websocket, log }),
    );
  }
  result.sdk = await metric('sdk-weight', '6. SDK weight', () => measureSdkWeight(context));
  result.browser = await metric('browser', "10. the shopper's side in the browser", () => measureBrowser({ ...context, config: CONFIG.browser }));
  result.webhooks = await metric('webhooks', "14. webhook endpoints' fan-out", () => measureWebhookFanOut({ ...context, config: CONFIG.webhooks }));
  await (counted?.server === server ? counted.stop() : server.stop());
  result.callbacks = await metric('callbacks', '4. callback delivery', () => measureCallbacksAlone());
  result.storeGrowth = await metric('store-growth', '3. store growth', async () =>
    measureStoreGrowth({ sides: await (growth ?? prepareStoreGrowth({ storeKind: result.storeKind, cleanup })), config: CONFIG.storeGrowth, log }),
  );
  result.failover = await metric('failover', '11. failover', () => measureFailover({ config: CONFIG.failover, log, cleanup }));
  result.bus = await metric('bus', '12. update bus', () => measureBus({ storeKind: result.storeKind, config: CONFIG.bus, log, cleanup }));
  result.stripe = await metric('stripe', '13. Stripe connector overhead', () =>
    measureStripeConnector({ storeKind: result.storeKind, config: CONFIG.stripe, log, cleanup }),
  );
} catch (error) {
  log(`the harness failed: ${error.stack ?? error}`);
  result.errors.push(`harness: ${String(error.message ?? error).split('\n')[0]}`);
} finally {
  await cleanUp();
}

result.durationS = (performance.now() - started) / 1000;
if (isInterrupted()) {
  log(`interrupted: every process stopped, every database dropped; ${out} left as it was`);
  process.exit(130);
}
if (result.machine) {
  // A full run of some metrics (--only) into an existing report replaces those metrics in it and keeps the rest.
  const previous = only && !quick ? await readFile(out, 'utf8').catch(() => null) : null;
  await writeFile(out, previous ? mergeReport(previous, result) : renderReport(result));
  log(`report written to ${out}`);
  for (const g of goals(result)) {
    const verdict = g.ok === null ? '–' : g.ok ? 'met' : 'NOT MET';
    process.stdout.write(`${g.metric}. ${g.what}: ${g.value} (goal ${g.goal}) ${verdict}\n`);
  }
}
if (result.errors.length > 0) {
  process.stderr.write(`bench: ${result.errors.length} error(s):\n${result.errors.map((e) => `  - ${e}`).join('\n')}\n`);
}
log(`done in ${result.durationS.toFixed(1)} s`);
process.exit(result.errors.length > 0 ? 1 : 0);
