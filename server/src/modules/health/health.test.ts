import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { SandboxProcessor } from '../../processor/sandbox-processor';
import { createApp } from '../../app';
import { ManualClock } from '../../clock';
import { loadEnv } from '../../env';
import { createLogger } from '../../logger';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { useTestApp } from '../../test/harness';

const t = useTestApp();

describe('GET /healthz', () => {
  it('answers 200 when the database answers', async () => {
    const res = await t.app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', mode: 'sandbox', database: { status: 'ok' } });
  });

  it('answers 503 database_unavailable with Retry-After when the database does not', async () => {
    const dead = postgres('postgres://nobody@127.0.0.1:1/none', { max: 1, connect_timeout: 1, onnotice: () => undefined });
    const env = loadEnv({ LOG_LEVEL: 'silent' });
    const server = http.createServer(
      createApp({ env, db: t.database.db, sql: dead, logger: createLogger({ level: 'silent' }), clock: new ManualClock(), processor: new SandboxProcessor() }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(((await res.json()) as { code: string }).code).toBe('database_unavailable');
    } finally {
      server.close();
      await dead.end({ timeout: 1 });
    }
  });
});
