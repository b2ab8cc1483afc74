import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { endpointRequest, type AuditLogPage, type ReadinessDetail, type TransactionPage } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from './db/client';
import { freePort } from './db/embedded';
import { applyMigrations } from './db/migrate';
import { provisionTestMerchant } from './test/fixtures';
import { merchantClient, type MerchantClient } from './test/merchant-client';
import { findPostgresPrograms, NO_POSTGRES_PROGRAMS, startReplicatedCluster, type ReplicatedCluster } from './test/postgres-cluster';
import { finished, spawnNode, waitForHealthy } from './test/process';

// The service with a streaming replica in DATABASE_READ_URL: the transaction list and search and the audit log read
// from it, a transaction's status (what a merchant acts on) from the primary. Proven by pausing the replica's replay
// (pg_wal_replay_pause): what is written meanwhile is in the status query and not yet in the list, and the list shows
// it once replay resumes. The replica's lag is a metric, and readiness reports the replica.
const programs = await findPostgresPrograms();
if (!programs) console.info(`read-replica.test.ts skipped: ${NO_POSTGRES_PROGRAMS}`);

/** Generous bounds for a loaded machine: replay is usually a matter of milliseconds. */
const REPLAY_BOUND_MS = 30_000;

describe.skipIf(!programs)('a primary with a read replica in DATABASE_READ_URL', () => {
  let cluster: ReplicatedCluster;
  let child: ReturnType<typeof spawnNode>;
  let dataDir: string;
  let base: string;
  let metricsUrl: string;
  let client: MerchantClient;
  let replica: postgres.Sql;

  beforeAll(async () => {
    cluster = await startReplicatedCluster({ synchronous: false });
    const admin = postgres(cluster.primary.url(), { max: 1, onnotice: () => undefined });
    await admin`create database svc`;
    await admin.end();
    await applyMigrations(cluster.primary.url('svc'));
    const primary = openDatabase(cluster.primary.url('svc'), { max: 1 });
    const merchant = await provisionTestMerchant(primary.db, 'Replica Shop');
    await primary.close();
    replica = postgres(cluster.standby.url('svc'), { max: 1, onnotice: () => undefined });
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-replica-'));
    const [port, metricsPort] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    child = spawnNode(['src/main.ts'], {
      DATABASE_URL: cluster.primary.url('svc'),
      DATABASE_READ_URL: cluster.standby.url('svc'),
      DATA_DIR: dataDir,
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
    });
    await waitForHealthy(`${base}/healthz`, child, 60_000);
    client = merchantClient(
      {
        request: (requestPath, init = {}) =>
          fetch(`${base}${requestPath}`, {
            method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
            headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
            body: init.body === undefined ? undefined : JSON.stringify(init.body),
          }),
      },
      merchant,
    );
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await finished(child, 10_000).catch(() => child.kill('SIGKILL'));
    }
    await replica?.end();
    await cluster?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  const listed = async (q?: string) => {
    const answer = await client.call<TransactionPage>('GET', `${endpointRequest('listTransactions', {}).path}${q ? `?q=${q}` : ''}`);
    expect(answer.status).toBe(200);
    return answer.body.data.map((t) => t.TransactionNumber);
  };
  const auditActions = async () => {
    const answer = await client.call<AuditLogPage>('GET', endpointRequest('listAuditLog', {}).path);
    expect(answer.status).toBe(200);
    return answer.body.data.map((entry) => entry.action);
  };
  const lag = async () => {
    const text = await (await fetch(metricsUrl)).text();
    return Number(/^svc_database_replica_lag_seconds (\S+)$/m.exec(text)?.[1]);
  };

  it('lists what the replica has replayed, while the status query reads the primary', { timeout: 120_000 }, async () => {
    const first = (await client.init({ amount: 5, currency: 'USD' })).body.TransactionNumber;
    await vi.waitFor(async () => expect(await listed()).toContain(first), { timeout: REPLAY_BOUND_MS, interval: 50 });
    await vi.waitFor(async () => expect(await lag()).toBe(0), { timeout: REPLAY_BOUND_MS, interval: 100 });

    await replica`select pg_wal_replay_pause()`;
    await vi.waitFor(async () => expect((await replica<{ state: string }[]>`select pg_get_wal_replay_pause_state() as state`)[0]!.state).toBe('paused'), {
      timeout: REPLAY_BOUND_MS,
      interval: 50,
    });
    const second = (await client.init({ amount: 6, currency: 'USD' })).body.TransactionNumber;
    const created = await client.call('POST', endpointRequest('createCredential', {}).path, { kind: 'client', allowedOrigins: ['https://shop.example.com'] });
    expect(created.status).toBe(201);
    // What the merchant acts on: the primary's.
    expect((await client.get(second)).status).toBe(200);
    // The list, a search and the audit log: the replica's, which has not replayed them.
    expect(await listed()).toContain(first);
    expect(await listed()).not.toContain(second);
    expect(await listed(second)).toEqual([]);
    expect(await auditActions()).not.toContain('credential.created');
    // Its lag grows while the WAL it received waits; readiness reports it, and the instance stays ready.
    await vi.waitFor(async () => expect(await lag()).toBeGreaterThan(0), { timeout: REPLAY_BOUND_MS, interval: 100 });
    // The public /readyz says only ready; the detail is on the operator's metrics listener.
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const readyz = await fetch(metricsUrl.replace(/\/metrics$/, '/readyz'));
    expect(readyz.status).toBe(200);
    const readiness = (await readyz.json()) as ReadinessDetail;
    expect(readiness.checks.replica).toMatchObject({ ok: true, detail: expect.stringMatching(/^replays \d+\.\d s behind the primary$/) });

    await replica`select pg_wal_replay_resume()`;
    await vi.waitFor(async () => expect(await listed(second)).toEqual([second]), { timeout: REPLAY_BOUND_MS, interval: 50 });
    expect(await auditActions()).toContain('credential.created');
    await vi.waitFor(async () => expect(await lag()).toBe(0), { timeout: REPLAY_BOUND_MS, interval: 100 });
  });

  it('answers a write 503 with Retry-After while the primary takes none (being demoted, or set read-only)', async () => {
    const primary = postgres(cluster.primary.url('svc'), { max: 1, onnotice: () => undefined });
    try {
      await primary`alter system set default_transaction_read_only = on`;
      await primary`select pg_reload_conf()`;
      const refused = await vi.waitFor(
        async () => {
          const answer = await client.init({ amount: 7, currency: 'USD' });
          expect(answer.status).not.toBe(200);
          return answer;
        },
        { timeout: REPLAY_BOUND_MS, interval: 50 },
      );
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).not.toBeNull();
    } finally {
      await primary`alter system reset default_transaction_read_only`;
      await primary`select pg_reload_conf()`;
      await primary.end();
    }
    await vi.waitFor(async () => expect((await client.init({ amount: 7, currency: 'USD' })).status).toBe(200), { timeout: REPLAY_BOUND_MS, interval: 50 });
  });
});
