import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { Status, type ProvisionedMerchant } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isSubscribed, openSocket } from '../realtime/testing';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { withDatabase } from '../test/database-url';
import { provisionTestMerchant } from '../test/fixtures';
import { consumerPays, merchantClient } from '../test/merchant-client';
import { PGBOUNCER_BINARY, startPgBouncer, type PgBouncer } from '../test/pgbouncer';
import { finished, outputTail, spawnNode, waitForHealthy } from '../test/process';
import { freePort } from './embedded';
import { applyMigrations } from './migrate';

/**
 * The service behind PgBouncer in transaction mode (docs/operating.md#connection-poolers): DATABASE_URL through the
 * pooler with DATABASE_PREPARED_STATEMENTS=false, DATABASE_LISTEN_URL straight to PostgreSQL for LISTEN, the one thing
 * the service ties to a connection. Runs where `pgbouncer` is installed (Debian: `apt-get install pgbouncer`), and says
 * why it skips elsewhere. The whole suite runs behind one with TEST_PGBOUNCER=1 (CONTRIBUTING.md#tests).
 */
if (!PGBOUNCER_BINARY) console.info('pgbouncer.test.ts skipped: no pgbouncer on PATH or at /usr/sbin/pgbouncer (Debian: apt-get install pgbouncer)');

describe.skipIf(!PGBOUNCER_BINARY)('behind PgBouncer in transaction mode', () => {
  let database: TestDatabase;
  let merchant: ProvisionedMerchant;
  let dir: string;
  let bouncer: PgBouncer;
  let server: ReturnType<typeof spawnNode> | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchant = await provisionTestMerchant(database.db, 'Pooled Shop');
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-pooled-'));
    bouncer = await startPgBouncer(database.url);
  });
  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGKILL');
      await finished(server);
    }
    await bouncer?.stop();
    await database?.drop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('applies the migrations through the pooler, several starts at once and again later, each migration once', async () => {
    const name = `svc_test_${randomBytes(4).toString('hex')}_pooled`;
    const admin = postgres(inject('adminDatabaseUrl'), { max: 1, onnotice: () => undefined });
    await admin.unsafe(`create database ${name} template template0`);
    try {
      const pooled = bouncer.through(withDatabase(inject('adminDatabaseUrl'), name));
      // A session lock taken through the pooler stays on whichever server connection took it: the next start waits for good.
      await Promise.all(Array.from({ length: 3 }, () => applyMigrations(pooled)));
      await applyMigrations(pooled);
      const sql = postgres(withDatabase(inject('adminDatabaseUrl'), name), { max: 1, onnotice: () => undefined });
      try {
        const [row] = await sql<{ n: number; distinct: number }[]>`
          select count(*)::int as n, count(distinct created_at)::int as distinct from drizzle.__drizzle_migrations`;
        expect(row!.n).toBeGreaterThan(10);
        expect(row!.distinct).toBe(row!.n);
      } finally {
        await sql.end();
      }
    } finally {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });

  it('runs a lifecycle and its websocket updates with DATABASE_URL through the pooler and DATABASE_LISTEN_URL direct', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = spawnNode(['src/main.ts'], {
      DATABASE_URL: bouncer.through(database.url),
      DATABASE_LISTEN_URL: database.url,
      DATABASE_PREPARED_STATEMENTS: 'false',
      DATABASE_POOL_MAX: '4',
      DATA_DIR: dir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
    });
    await waitForHealthy(`${base}/healthz`, server);
    const before = await bouncer.transactionsTo(database.name);
    const app = {
      request: (requestPath: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
        fetch(`${base}${requestPath}`, {
          method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
          headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        }),
    };
    const client = merchantClient(app, merchant);
    const socket = await openSocket({ wsUrl: `ws://127.0.0.1:${port}/ws` }, { headers: { authorization: `Bearer ${merchant.apiKey}` } });
    try {
      socket.send({ type: 'subscribe', scope: 'merchant' });
      await socket.next(isSubscribed);
      // Several rounds, so that statements meet server connections other than the ones they were first sent on.
      for (let i = 0; i < 5; i++) {
        const created = await client.init({ amount: 10 + i, currency: 'USD', methodType: 'authorize' });
        expect(created.status).toBe(200);
        expect((await consumerPays(app, created.body)).status).toBe(200);
        const token = (await client.get(created.body.TransactionNumber)).body.paymentDetails!.token!;
        expect((await client.pay({ token, amount: 500 })).status).toBe(200);
        expect((await client.get(created.body.TransactionNumber)).body.status).toBe(Status.PartiallyCaptured);
        // The updates made through the pooler reach the socket through the direct LISTEN connection.
        await expect
          .poll(() => socket.updates(created.body.TransactionNumber).map((u) => u.transaction.status), { timeout: 5_000 })
          .toEqual([Status.Pending, Status.Authorized, Status.PartiallyCaptured]);
      }
      // The service's statements did go through PgBouncer.
      expect(await bouncer.transactionsTo(database.name)).toBeGreaterThan(before + 10);
    } finally {
      await socket.close();
    }
    server.kill('SIGTERM');
    const stopped = await finished(server);
    expect(stopped.code, outputTail(stopped)).toBe(0);
  });
});
