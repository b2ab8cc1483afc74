import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from './db/client';
import { freePort } from './db/embedded';
import { applyMigrations } from './db/migrate';
import { FailoverLoad } from './test/failover-load';
import { provisionTestMerchant } from './test/fixtures';
import { findPostgresPrograms, NO_POSTGRES_PROGRAMS, startReplicatedCluster, type ReplicatedCluster } from './test/postgres-cluster';
import { finished, spawnNode, waitForHealthy } from './test/process';

// The service on a primary with a synchronous standby, named together in DATABASE_URL
// (`postgres://…@primary,standby/svc?target_session_attrs=read-write`), under 8 clients running the payment lifecycle;
// the primary is killed (an immediate stop: no checkpoint, connections cut) and the standby promoted. Every payment
// answered 200 is on the promoted standby, none is paid twice, clients meanwhile see only 2xx or 503 with
// Retry-After, and the service writes again on the new primary without a restart. How long writes were unavailable is
// printed (the failover benchmark measures it: bench/metrics/failover.mjs), never asserted.
const programs = await findPostgresPrograms();
if (!programs) console.info(`failover.test.ts skipped: ${NO_POSTGRES_PROGRAMS}`);

const CLIENTS = 8;
/** Sequences captured before the primary is killed, and again after the promotion: enough to meet the failover mid-flight. */
const CAPTURED_BEFORE = 16;
const CAPTURED_AFTER = 16;
/** Generous bounds for a loaded machine: they prove the service comes back by itself, not how fast. */
const BOUND_MS = 90_000;

describe.skipIf(!programs)('a primary that dies, and its synchronous standby promoted', () => {
  let cluster: ReplicatedCluster;
  let child: ReturnType<typeof spawnNode>;
  let dataDir: string;
  let base: string;
  let apiKey: string;

  beforeAll(async () => {
    cluster = await startReplicatedCluster({ synchronous: true });
    const admin = postgres(cluster.primary.url(), { max: 1, onnotice: () => undefined });
    await admin`create database svc`;
    await admin.end();
    await applyMigrations(cluster.primary.url('svc'));
    const primary = openDatabase(cluster.primary.url('svc'), { max: 1 });
    apiKey = (await provisionTestMerchant(primary.db, 'Failover Shop')).apiKey;
    await primary.close();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-failover-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawnNode(['src/main.ts'], {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${cluster.primary.port},127.0.0.1:${cluster.standby.port}/svc?target_session_attrs=read-write`,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_POOL_MAX: '8',
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      RATE_LIMIT_PER_S: '100000',
      RATE_LIMIT_BURST: '100000',
      SHUTDOWN_GRACE_MS: '2000',
    });
    await waitForHealthy(`${base}/healthz`, child, 60_000);
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await finished(child, 10_000).catch(() => child.kill('SIGKILL'));
    }
    await cluster?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('reaches the primary with read-write however the hosts are listed, a hot standby first included', async () => {
    const [primary, standby] = [cluster.primary.port, cluster.standby.port].map((port) => `127.0.0.1:${port}`);
    const url = `postgres://postgres@${standby},${primary}/svc?target_session_attrs=read-write`;
    // The service's pool (its sockets carry the answer deadline) and a plain client (LISTEN, migrations): each new
    // connection tries the standby first, which reports default_transaction_read_only off, yet is read-only.
    for (const sql of [openDatabase(url, { max: 1 }).sql, postgres(url, { max: 1, onnotice: () => undefined })]) {
      try {
        const [row] = await sql<{ recovery: boolean }[]>`select pg_is_in_recovery() as recovery`;
        expect(row!.recovery).toBe(false);
      } finally {
        await sql.end();
      }
    }
  });

  it(
    'keeps every payment answered 200, pays none twice, answers only 2xx or 503 with Retry-After, and writes again on the new primary',
    { timeout: 300_000 },
    async () => {
      const load = new FailoverLoad(base, apiKey);
      load.start(CLIENTS);
      let failover: { killedAt: number; promotedAt: number };
      try {
        await vi.waitFor(() => expect(load.capturedSince(0)).toBeGreaterThanOrEqual(CAPTURED_BEFORE), { timeout: BOUND_MS, interval: 50 });
        const killedAt = performance.now();
        await cluster.kill(cluster.primary);
        await cluster.promote(cluster.standby);
        const promotedAt = performance.now();
        await vi.waitFor(() => expect(load.capturedSince(promotedAt)).toBeGreaterThanOrEqual(CAPTURED_AFTER), { timeout: BOUND_MS, interval: 50 });
        failover = { killedAt, promotedAt };
      } finally {
        await load.stop();
      }
      const { killedAt, promotedAt } = failover;
      const firstWrite = load.firstWriteAfter(killedAt)!;
      console.info(
        `failover: writes unavailable ${Math.round(firstWrite - killedAt)} ms (kill → promoted ${Math.round(promotedAt - killedAt)} ms, ` +
          `promoted → first write ${Math.round(firstWrite - promotedAt)} ms); ${load.unavailable} answers 503 with Retry-After; ${cluster.programs}`,
      );
      expect(child.exitCode, child.output.stderr).toBeNull();
      expect(load.unexpected).toEqual([]);

      // What the clients were answered 200 is on the promoted standby, once.
      const promoted = postgres(cluster.standby.url('svc'), { max: 1, onnotice: () => undefined });
      try {
        const paid = load.sequences.filter((s) => s.paid).map((s) => s.transactionNumber!);
        const captured = load.sequences.filter((s) => s.capturedPaymentId);
        const stored = await promoted<{ transactionNumber: string; authorizedCents: number; capturedCents: number; payments: string[] }[]>`
        select t.transaction_number as "transactionNumber", t.authorized_cents::int as "authorizedCents", t.captured_cents::int as "capturedCents",
          coalesce((select array_agg(p.payment_id) from payments p where p.transaction_id = t.id and p.status = 'succeeded'), '{}') as payments
        from transactions t where t.transaction_number = any(${paid})`;
        const byNumber = new Map(stored.map((row) => [row.transactionNumber, row]));
        expect(paid.filter((number) => (byNumber.get(number)?.authorizedCents ?? 0) <= 0)).toEqual([]);
        expect(captured.filter((s) => !byNumber.get(s.transactionNumber!)?.payments.includes(s.capturedPaymentId!))).toEqual([]);
        // Nothing paid twice: each sequence asked for one capture, so no transaction holds two payments, nor more captured than one asked.
        const [twice] = await promoted<{ n: number }[]>`
        select count(*)::int as n from transactions t
        where (select count(*) from payments p where p.transaction_id = t.id and p.status = 'succeeded') > 1
           or t.captured_cents > (select coalesce(max(p.amount_cents), 0) from payments p where p.transaction_id = t.id and p.status = 'succeeded')`;
        expect(twice!.n).toBe(0);
      } finally {
        await promoted.end();
      }
    },
  );
});
