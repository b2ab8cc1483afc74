import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../clock';
import { createLogger } from '../logger';
import { loadEnv } from '../env';
import { startExpiryWorker } from '../modules/expiry/expiry-worker';
import { SandboxProcessor } from '../processor/sandbox-processor';
import { startTestApp, bearer, type TestApp } from '../test/app';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { provisionTestMerchant } from '../test/fixtures';
import { TcpProxy, type ProxyMode } from '../test/tcp-proxy';
import { openDatabase, type DatabaseHandle } from './client';

// The service on a database reached through a proxy the test controls: a refused, black-holed or reset database is
// an outage answered 503 database_unavailable with Retry-After, logged once, and service resumes without a restart.
let direct: TestDatabase;
let proxy: TcpProxy;
let through: DatabaseHandle & { url: string };
let app: TestApp;
let apiKey: string;
const lines: { level: string; msg: string }[] = [];
const logger = createLogger({
  level: 'info',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: string; msg: string });
      done();
    },
  }),
});
const isError = (line: { level: string }) => line.level === 'error' || line.level === 'fatal';

beforeAll(async () => {
  direct = await createTestDatabase({ max: 2 });
  const target = new URL(direct.url);
  proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.start();
  const url = proxy.urlFor(direct.url);
  through = { ...openDatabase(url, { max: 4, connectTimeoutMs: 500, statementTimeoutMs: 500 }), url };
  app = await startTestApp(through, { logger, env: { RATE_LIMIT_PER_S: '100000', RATE_LIMIT_BURST: '100000' } });
  apiKey = (await provisionTestMerchant(direct.db)).apiKey;
});

afterAll(async () => {
  await proxy?.setMode('forward');
  await app?.close();
  await through?.close();
  await proxy?.close();
  await direct?.drop();
});

const init = () => app.request('/transactions/init', { headers: bearer(apiKey), body: { amount: 1, currency: 'USD' } });

async function expectOutageAnswers(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const res = await init();
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(((await res.json()) as { code: string }).code).toBe('database_unavailable');
  }
  const health = await app.request('/healthz');
  expect(health.status).toBe(503);
  expect(((await health.json()) as { code: string }).code).toBe('database_unavailable');
}

async function expectServiceBack(): Promise<void> {
  await vi.waitFor(async () => expect((await app.request('/healthz')).status).toBe(200), { timeout: 5_000, interval: 50 });
  expect((await init()).status).toBe(200);
}

describe('the database lost and back', () => {
  it.each<ProxyMode>(['refuse', 'blackhole'])('%s: 503 database_unavailable with Retry-After, no error logged, and back without a restart', async (mode) => {
    expect((await init()).status).toBe(200);
    const errorsBefore = lines.filter(isError).length;
    const warningsBefore = lines.filter((l) => l.level === 'warn').length;
    await proxy.setMode(mode);
    await expectOutageAnswers();
    await proxy.setMode('forward');
    await expectServiceBack();
    expect(lines.filter(isError).slice(errorsBefore)).toEqual([]);
    // The outage is one warning (and one line when it ends), not a line per request.
    expect(lines.filter((l) => l.level === 'warn').length - warningsBefore).toBeLessThanOrEqual(1);
  });

  it('reset connections: the requests they carried fail or succeed, the next ones succeed', async () => {
    const inFlight = Array.from({ length: 8 }, () => init());
    proxy.reset();
    for (const res of await Promise.all(inFlight)) expect([200, 503]).toContain(res.status);
    await expectServiceBack();
  });
});

describe('background work during an outage', () => {
  it('the expiry sweep logs the outage once, not a stack per tick, and says when it ends', async () => {
    const ticks = { count: 0 };
    const clock = new ManualClock();
    const counting = { now: () => (ticks.count++, clock.now()) };
    const before = lines.length;
    await proxy.setMode('refuse');
    const worker = startExpiryWorker({
      db: through.db,
      processor: new SandboxProcessor(),
      clock: counting,
      env: loadEnv({}),
      baseUrl: 'http://localhost:8080',
      logger,
      intervalMs: 5,
    });
    try {
      await vi.waitFor(() => expect(ticks.count).toBeGreaterThanOrEqual(20), { timeout: 10_000, interval: 10 });
      const during = lines.slice(before);
      expect(during.filter(isError)).toEqual([]);
      expect(during.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual(['expiry sweep: the database is unavailable; retrying until it answers']);
      await proxy.setMode('forward');
      await vi.waitFor(() => expect(lines.slice(before).map((l) => l.msg)).toContain('expiry sweep: the database answers again'), {
        timeout: 5_000,
        interval: 20,
      });
    } finally {
      await proxy.setMode('forward');
      await worker.stop();
    }
  });
});
