// Metric 1: lifecycle throughput (init → consumer pays → status → capture) at 8 concurrent clients, against the
// reference server measured in the same run, in alternating rounds so that all see the same machine noise; beside
// them, the reference's code writing the service's own rows (reference-rows.mjs), which is not a goal.
import { createConnection } from '../load-client.mjs';
import { loadRounds } from '../load-rounds.mjs';
import { LIFECYCLE_STEPS, runLifecycle } from '../lifecycle.mjs';
import { rowsReferenceDatabase, startReferenceServer, runReferenceSequence } from '../reference-client.mjs';
import { StepLatencies } from '../latencies.mjs';
import { measureReferenceWire, measureWritesPerStep } from '../write-count.mjs';
import { cpuSampler, REFERENCE_APPLICATION, REFERENCE_ROWS_APPLICATION } from '../cpu-usage.mjs';
import { connect } from '../database.mjs';

export const CLIENTS = 8;

/**
 * Closed-loop rounds of `sequence` on CLIENTS connections (one connection set per target, reused across rounds).
 * Latencies are kept for measured rounds only, and only for requests that finish inside the round's window.
 */
export function lifecycleTarget(url, sequence, cpu) {
  const connections = Array.from({ length: CLIENTS }, () => createConnection(url));
  const latencies = new StepLatencies();
  const record = (step, ms) => latencies.add(step, ms);
  const load = loadRounds({ clients: CLIENTS, latencies, cpu, iteration: (i) => sequence(connections[i], record) });
  return {
    latencies,
    rounds: load.rounds,
    round: load.round,
    totals() {
      const { completed, failed, seconds, perSecond, failures, cpuPerIteration } = load.totals();
      return { completed, failed, seconds, perSecond, failures, cpuPerSequence: cpuPerIteration };
    },
    close: () => connections.forEach((c) => c.close()),
  };
}

/**
 * `counted`: a server started with startCountedServer (write-count.mjs) on the same store, or a promise of one;
 * unless it is `server` itself (quick runs), it is stopped once the counts are taken.
 */
export async function measureLifecycle({ server, counted, merchant, sql, config, log }) {
  log('  rows, statements and round trips per request…');
  const countedServer = await counted;
  const writes = await measureWritesPerStep(countedServer, merchant, sql, config.writeSamples);
  if (countedServer.server !== server) await countedServer.stop();
  const referenceWrites = Object.fromEntries(LIFECYCLE_STEPS.map((step) => [step, Math.round(writes[step].rows)]));
  const referenceWire = config.referenceWire ? await measureReferenceWire(server.store, referenceWrites, config.writeSamples) : null;
  // Beside the reference, its code writing the service's own rows (reference-rows.mjs), in a database of its own:
  // what of the gap is the data the service keeps, and what its code. Not a goal.
  const rowsDatabase = await rowsReferenceDatabase(server.store.url());
  const rowsSql = connect(rowsDatabase.url, 2);
  /** @type {{ url: string, pid: number | undefined, stop(): Promise<unknown> }[]} */
  const started = [];
  /** @type {ReturnType<typeof lifecycleTarget>[]} */
  const targets = [];
  try {
    const reference = await startReferenceServer(server.store.url(), referenceWrites);
    started.push(reference);
    const rowsReference = await startReferenceServer(rowsDatabase.url, {}, { serviceRowsOf: rowsDatabase.merchantId });
    started.push(rowsReference);
    const service = lifecycleTarget(
      server.url,
      (connection, record) => runLifecycle(connection, merchant.apiKey, { record }),
      cpuSampler({ pid: server.pid, sql }),
    );
    const floor = lifecycleTarget(
      reference.url,
      (connection, record) => runReferenceSequence(connection, { record }),
      cpuSampler({ pid: reference.pid, sql, application: REFERENCE_APPLICATION }),
    );
    const rows = lifecycleTarget(
      rowsReference.url,
      (connection, record) => runReferenceSequence(connection, { record }),
      cpuSampler({ pid: rowsReference.pid, sql: rowsSql, application: REFERENCE_ROWS_APPLICATION }),
    );
    targets.push(service, floor, rows);
    log('  warm-up…');
    for (const target of targets) await target.round(config.warmupMs, { measure: false });
    for (let r = 0; r < config.rounds; r++) {
      // Each round starts with the next server (S F R, F R S, R S F): over three rounds each runs first, second and last once.
      const order = targets.map((_, i) => targets[(i + r) % targets.length]);
      for (const target of order) await target.round(config.roundMs);
      const [s, f, w] = targets.map((target) => target.rounds.at(-1)?.perSecond.toFixed(1));
      log(`  round ${r + 1}/${config.rounds}: service ${s} seq/s, reference ${f} seq/s, reference writing the service's rows ${w} seq/s`);
    }
  } finally {
    for (const target of targets) target.close();
    try {
      for (const child of started) await child.stop();
    } finally {
      await rowsSql.end({ timeout: 2 }).finally(() => rowsDatabase.dispose());
    }
  }
  const [service, floor, rows] = targets;
  const serviceTotals = service.totals();
  const floorTotals = floor.totals();
  return {
    clients: CLIENTS,
    writeSamples: config.writeSamples,
    writes,
    referenceWrites,
    referenceWire,
    service: { ...serviceTotals, latencies: service.latencies, rounds: service.rounds.map((r) => r.perSecond) },
    reference: { ...floorTotals, latencies: floor.latencies, rounds: floor.rounds.map((r) => r.perSecond) },
    ratio: serviceTotals.perSecond / floorTotals.perSecond,
    referenceRows: { ...rows.totals(), latencies: rows.latencies, rounds: rows.rounds.map((r) => r.perSecond) },
    roundRatios: service.rounds.map((s, i) => s.perSecond / floor.rounds[i].perSecond),
  };
}
