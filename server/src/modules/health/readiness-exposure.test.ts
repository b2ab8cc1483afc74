import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { ManualClock } from '../../clock';
import { loadEnv } from '../../env';
import { createLogger } from '../../logger';
import { metrics, startMetricsServer } from '../../metrics';
import { SandboxProcessor } from '../../processor/sandbox-processor';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { ReadinessChecks } from '../../readiness';

/**
 * The public port says only whether the instance is ready; what each check found (the last migration, each worker's
 * tick, why the database failed) is the operator's, on the metrics listener.
 */
const logger = createLogger({ level: 'silent' });
let database: TestDatabase;
let app: http.Server;
let metricsServer: http.Server;
let publicBase: string;
let metricsBase: string;
let workerOk = true;
const readiness = new ReadinessChecks()
  .add('migrations', () => ({ ok: true, detail: 'applied up to 0042_secret_plans' }))
  .add('expiry_sweeps', () => (workerOk ? { ok: true, detail: 'ticked 0.4 s ago' } : { ok: false, detail: 'no tick for 61.0 s' }));

const listening = async (server: http.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  database = await createTestDatabase();
  app = http.createServer(
    createApp({
      env: loadEnv({ LOG_LEVEL: 'silent' }),
      db: database.db,
      sql: database.sql,
      logger,
      clock: new ManualClock(),
      processor: new SandboxProcessor(),
      readiness,
    }),
  );
  publicBase = await listening(app);
  metricsServer = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0, logger, readiness });
  metricsBase = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  app?.close();
  metricsServer?.close();
  await database?.drop();
});

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, text: await res.text(), cacheControl: res.headers.get('cache-control') };
};

describe('GET /readyz', () => {
  it('on the public port: ready or not, and nothing of what the checks found', async () => {
    for (const ok of [true, false]) {
      workerOk = ok;
      const answer = await get(`${publicBase}/readyz`);
      expect(answer.status).toBe(ok ? 200 : 503);
      expect(JSON.parse(answer.text)).toEqual({ status: ok ? 'ready' : 'not_ready' });
      expect(answer.cacheControl).toBe('no-store');
    }
  });

  it('on the metrics listener: every check with what it found, 503 when one fails', async () => {
    for (const ok of [true, false]) {
      workerOk = ok;
      const answer = await get(`${metricsBase}/readyz`);
      expect(answer.status).toBe(ok ? 200 : 503);
      expect(JSON.parse(answer.text)).toEqual({
        status: ok ? 'ready' : 'not_ready',
        checks: {
          migrations: { ok: true, detail: 'applied up to 0042_secret_plans' },
          expiry_sweeps: ok ? { ok: true, detail: 'ticked 0.4 s ago' } : { ok: false, detail: 'no tick for 61.0 s' },
        },
      });
      expect(answer.cacheControl).toBe('no-store');
    }
  });
});
