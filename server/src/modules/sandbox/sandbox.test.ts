import { SandboxProcessor } from '../../processor/sandbox-processor';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../env';
import { startTestApp } from '../../test/app';
import { createLogger } from '../../logger';
import { startExpiryWorker } from '../expiry/expiry-worker';
import { SandboxClock } from './sandbox-clock';
import { useTestApp } from '../../test/harness';
import { Status } from '@svc/protocol';

const t = useTestApp();

describe('the sandbox test clock', () => {
  it('reads and moves forward, and the move is shared through the database', async () => {
    const before = (await t.client.call<{ now: string; offsetSeconds: number }>('GET', '/sandbox/clock')).body;
    const moved = await t.client.advanceClock(3600);
    expect(moved.status).toBe(200);
    expect(moved.body.offsetSeconds).toBe(before.offsetSeconds + 3600);
    expect(Date.parse(moved.body.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3600_000);

    // Another instance on the same t.database sees the same time after a refresh.
    const other = new SandboxClock(t.database.db);
    await other.refresh();
    expect(other.offsetMs).toBe(moved.body.offsetSeconds * 1000);
  });

  it('refuses to move backwards or by nothing', async () => {
    for (const seconds of [0, -10, 1.5]) {
      const res = await t.client.call('POST', '/sandbox/clock/advance', { seconds });
      expect(res.status).toBe(400);
    }
  });

  it('needs a merchant key', async () => {
    expect((await t.app.request('/sandbox/clock')).status).toBe(401);
    expect((await t.app.request('/sandbox/clock', { headers: { authorization: `Bearer ${t.merchant.clientId}` } })).status).toBe(403);
  });

  it('does not exist in production', async () => {
    const production = await startTestApp(t.database, {
      env: { SVC_MODE: 'production', PUBLIC_BASE_URL: 'https://pay.example.com' },
      clock: { now: () => new Date() },
    });
    try {
      const res = await production.request('/sandbox/clock', { headers: { authorization: `Bearer ${t.merchant.apiKey}` } });
      expect(res.status).toBe(404);
    } finally {
      await production.close();
    }
  });
});

describe('the expiry worker', () => {
  it('times out pending transactions on its own, following the sandbox clock', async () => {
    const created = await t.client.init({ amount: 1, currency: 'USD', timeOut: 60 });
    const clock = new SandboxClock(t.database.db);
    // Move the shared clock without the endpoint's own sweep: only the worker can time it out now.
    await t.database.db.transaction((tx) => clock.advance(120, tx));
    expect((await t.client.get(created.body.TransactionNumber)).body.status).toBe(Status.Pending);
    const worker = startExpiryWorker({
      db: t.database.db,
      processor: new SandboxProcessor(),
      clock,
      env: loadEnv({}),
      baseUrl: loadEnv({}).PUBLIC_BASE_URL,
      logger: createLogger({ level: 'silent' }),
      intervalMs: 20,
    });
    try {
      await expect.poll(async () => (await t.client.get(created.body.TransactionNumber)).body.status, { timeout: 5000 }).toBe(Status.TimedOut);
    } finally {
      await worker.stop();
    }
  });
});
