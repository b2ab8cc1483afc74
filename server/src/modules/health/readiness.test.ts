import http from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadinessDetail } from '@svc/protocol';
import { createApp } from '../../app';
import { ManualClock } from '../../clock';
import { ResilientListener } from '../../db/resilient-listener';
import { loadEnv } from '../../env';
import { createLogger } from '../../logger';
import { metrics, startMetricsServer } from '../../metrics';
import { SandboxProcessor } from '../../processor/sandbox-processor';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { TcpProxy } from '../../test/tcp-proxy';
import { startExpiryWorker } from '../expiry';
import { databaseAnswers, migrationsApplied } from './readiness.queries';
import { ReadinessChecks } from '../../readiness';

const logger = createLogger({ level: 'silent' });
const env = loadEnv({ LOG_LEVEL: 'silent' });

/** Polls until `done` holds: a heartbeat goes stale by real time, so the test waits for it rather than for a fixed delay. */
async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}

describe('GET /livez and GET /readyz', () => {
  let database: TestDatabase;
  let dbProxy: TcpProxy;
  let listenProxy: TcpProxy;
  let sql: postgres.Sql;
  let listener: ResilientListener;
  let worker: { stop(): Promise<void> };
  let server: http.Server;
  let metricsServer: http.Server;
  let base: string;
  let detailBase: string;
  const checks = new ReadinessChecks();
  const clock = new ManualClock();
  const expiry = checks.heartbeat('expiry_sweeps', 3_000);
  const startWorker = () =>
    startExpiryWorker({ db: database.db, processor: new SandboxProcessor(), clock, env, baseUrl: 'http://x', logger, intervalMs: 50, onTick: expiry.beat });

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = new URL(database.url);
    dbProxy = new TcpProxy({ host: target.hostname, port: Number(target.port) });
    listenProxy = new TcpProxy({ host: target.hostname, port: Number(target.port) });
    await dbProxy.start();
    await listenProxy.start();
    sql = postgres(dbProxy.urlFor(database.url), { max: 2, connect_timeout: 1, onnotice: () => undefined });
    listener = new ResilientListener(() => postgres(listenProxy.urlFor(database.url), { max: 1, connect_timeout: 1, onnotice: () => undefined }), logger, {
      checkIntervalMs: 3_600_000,
      pingTimeoutMs: 300,
    });
    await listener.start();
    checks
      .add('database', databaseAnswers(sql))
      .add('migrations', migrationsApplied(sql))
      .add('listener', () => listener.status());
    worker = startWorker();
    server = http.createServer(createApp({ env, db: database.db, sql, logger, clock, processor: new SandboxProcessor(), readiness: checks }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // What each check found is on the operator's listener; the public /readyz says only ready or not.
    metricsServer = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0, logger, readiness: checks });
    detailBase = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server?.close();
    metricsServer?.close();
    await worker?.stop();
    await listener?.stop();
    await sql?.end({ timeout: 1 });
    await dbProxy?.close();
    await listenProxy?.close();
    await database?.drop();
  });

  const readyz = async () => {
    const res = await fetch(`${detailBase}/readyz`);
    const body = (await res.json()) as ReadinessDetail;
    // The public port gives the same verdict.
    const verdict = await fetch(`${base}/readyz`);
    expect(await verdict.json()).toEqual({ status: verdict.status === 200 ? 'ready' : 'not_ready' });
    return { status: res.status, body };
  };
  const failing = (body: ReadinessDetail) =>
    Object.entries(body.checks)
      .filter(([, check]) => !check.ok)
      .map(([name]) => name);

  it('is ready when every check passes, each named with a detail', async () => {
    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body.status).toBe('ready');
    expect(Object.keys(body.checks).sort()).toEqual(['database', 'expiry_sweeps', 'listener', 'migrations']);
    for (const check of Object.values(body.checks)) expect(check.detail).not.toBe('');
  });

  it('is not ready while the database is gone (liveness stays 200), and ready again when it is back', async () => {
    await dbProxy.setMode('refuse');
    try {
      const { status, body } = await readyz();
      expect(status).toBe(503);
      expect(body.status).toBe('not_ready');
      // The migrations are read from the same database: they cannot be confirmed either. Nothing else fails.
      expect(failing(body)).toEqual(['database', 'migrations']);
      expect(body.checks.database!.detail).not.toContain('127.0.0.1');
      expect((await fetch(`${base}/livez`)).status).toBe(200);
    } finally {
      await dbProxy.setMode('forward');
    }
    await until(async () => (await readyz()).status === 200, 'ready after the database came back');
  });

  it('is not ready while the listener does not hear its own notifications, and ready once it does again', async () => {
    await listenProxy.setMode('blackhole');
    try {
      await listener.check();
      const { status, body } = await readyz();
      expect(status).toBe(503);
      expect(failing(body)).toEqual(['listener']);
    } finally {
      await listenProxy.setMode('forward');
    }
    await until(async () => {
      await listener.check();
      return (await readyz()).status === 200;
    }, 'ready after the listener hears itself again');
  });

  it('is not ready once a worker stopped ticking, and ready when it runs again', async () => {
    await worker.stop();
    await until(async () => (await readyz()).status === 503, 'not ready after the worker stopped');
    const { body } = await readyz();
    expect(failing(body)).toEqual(['expiry_sweeps']);
    expect(body.checks.expiry_sweeps!.detail).toContain('no tick');
    worker = startWorker();
    await until(async () => (await readyz()).status === 200, 'ready after the worker started again');
  });
});

describe('a check reported but not required', () => {
  it('is listed with its verdict, and never makes the instance unready', async () => {
    const checks = new ReadinessChecks()
      .add('database', () => ({ ok: true, detail: 'answered in 1 ms' }))
      .add('replica', () => ({ ok: false, detail: 'no answer (ECONNREFUSED)' }), { required: false });
    expect(await checks.run()).toEqual({
      ok: true,
      checks: { database: { ok: true, detail: 'answered in 1 ms' }, replica: { ok: false, detail: 'no answer (ECONNREFUSED)' } },
    });
    checks.add('listener', () => ({ ok: false, detail: 'not hearing itself' }));
    expect((await checks.run()).ok).toBe(false);
  });
});
