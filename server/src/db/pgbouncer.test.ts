import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { Status, type ProvisionedMerchant } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSubscribed, openSocket } from '../realtime/testing';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { provisionTestMerchant } from '../test/fixtures';
import { consumerPays, merchantClient } from '../test/merchant-client';
import { finished, outputTail, spawnNode, waitForHealthy } from '../test/process';
import { testHarnessEnvironment } from '../env';
import { freePort } from './embedded';

/**
 * The service behind PgBouncer in transaction mode (docs/operating.md#connection-poolers): DATABASE_URL through the
 * pooler with DATABASE_PREPARED_STATEMENTS=false, DATABASE_LISTEN_URL straight to PostgreSQL for LISTEN and the
 * migrations' lock. Runs where `pgbouncer` is installed (Debian: `apt-get install pgbouncer`), and says why it skips
 * elsewhere.
 */
const PGBOUNCER = [
  '/usr/sbin/pgbouncer',
  ...testHarnessEnvironment()
    .path.split(path.delimiter)
    .map((dir) => path.join(dir, 'pgbouncer')),
].find((file) => existsSync(file));
if (!PGBOUNCER) console.info('pgbouncer.test.ts skipped: no pgbouncer on PATH or at /usr/sbin/pgbouncer (Debian: apt-get install pgbouncer)');

describe.skipIf(!PGBOUNCER)('behind PgBouncer in transaction mode', () => {
  let database: TestDatabase;
  let merchant: ProvisionedMerchant;
  let dir: string;
  let bouncer: ChildProcess;
  let bouncerPort: number;
  let server: ReturnType<typeof spawnNode> | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchant = await provisionTestMerchant(database.db, 'Pooled Shop');
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-pgbouncer-'));
    bouncerPort = await freePort();
    const target = new URL(database.url);
    // Clients are trusted; PgBouncer logs in to PostgreSQL with the password written here (none for a trust server).
    await fs.writeFile(path.join(dir, 'userlist.txt'), `"${decodeURIComponent(target.username)}" "${decodeURIComponent(target.password)}"\n`);
    await fs.writeFile(
      path.join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${target.hostname} port=${target.port || 5432}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${bouncerPort}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${path.join(dir, 'userlist.txt')}`,
        `admin_users = ${decodeURIComponent(target.username)}`,
        'pool_mode = transaction',
        'default_pool_size = 4',
        'max_client_conn = 100',
        // PgBouncer passes on only the startup parameters it knows; these the service sets are dropped (set them on the role).
        'ignore_startup_parameters = statement_timeout,idle_in_transaction_session_timeout',
        `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
        `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      ].join('\n'),
    );
    // PgBouncer refuses to run as root: when the tests do, it drops to `nobody`, which must read its files.
    const root = process.getuid?.() === 0;
    if (root) await fs.chmod(dir, 0o777);
    bouncer = spawn(PGBOUNCER!, [...(root ? ['-u', 'nobody'] : []), path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!(await answersThroughBouncer())) {
      if (bouncer.exitCode !== null || Date.now() > deadline)
        throw new Error(`pgbouncer did not start: ${await fs.readFile(path.join(dir, 'pgbouncer.log'), 'utf8').catch(() => '')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGKILL');
      await finished(server);
    }
    bouncer?.kill('SIGTERM');
    await database?.drop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  const throughBouncer = () => {
    const url = new URL(database.url);
    url.hostname = '127.0.0.1';
    url.port = String(bouncerPort);
    return url.toString();
  };
  const answersThroughBouncer = async () => {
    const sql = postgres(throughBouncer(), { max: 1, prepare: false, connect_timeout: 2, onnotice: () => undefined });
    try {
      await sql`select 1`;
      return true;
    } catch {
      return false;
    } finally {
      await sql.end({ timeout: 1 });
    }
  };
  /** Transactions PgBouncer passed to the test database, from its admin console. */
  const pooledTransactions = async () => {
    const admin = new URL(throughBouncer());
    admin.pathname = '/pgbouncer';
    const sql = postgres(admin.toString(), { max: 1, prepare: false, fetch_types: false, onnotice: () => undefined });
    try {
      const rows = await sql.unsafe<{ database: string; total_xact_count: string }[]>('SHOW STATS').simple();
      return Number(rows.find((row) => row.database === new URL(database.url).pathname.slice(1))?.total_xact_count ?? 0);
    } finally {
      await sql.end({ timeout: 1 });
    }
  };

  it('runs a lifecycle and its websocket updates with DATABASE_URL through the pooler and DATABASE_LISTEN_URL direct', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = spawnNode(['src/main.ts'], {
      DATABASE_URL: throughBouncer(),
      DATABASE_LISTEN_URL: database.url,
      DATABASE_PREPARED_STATEMENTS: 'false',
      DATABASE_POOL_MAX: '4',
      DATA_DIR: dir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
    });
    await waitForHealthy(`${base}/healthz`, server);
    const before = await pooledTransactions();
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
      expect(await pooledTransactions()).toBeGreaterThan(before + 10);
    } finally {
      await socket.close();
    }
    server.kill('SIGTERM');
    const stopped = await finished(server);
    expect(stopped.code, outputTail(stopped)).toBe(0);
  });
});
