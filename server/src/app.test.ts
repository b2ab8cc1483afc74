import { ENDPOINTS } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import type { Express } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { systemClock, type TestClock } from './clock';
import { loadEnv } from './env';
import { SandboxProcessor } from './processor/sandbox-processor';
import { useTestApp } from './test/harness';

const t = useTestApp();

const appBase = () => ({ db: t.database.db, sql: t.database.sql, logger: t.app.logger, processor: new SandboxProcessor(), clock: systemClock });
const fixedTestClock: TestClock = {
  offsetMs: 3_600_000,
  now: () => new Date('2030-01-01T01:00:00.000Z'),
  refresh: async () => undefined,
  advance: async () => ({ now: new Date('2030-01-01T01:00:00.000Z'), offsetMs: 3_600_000 }),
};

type Layer = { handle: { operationIds?: string[]; stack?: Layer[] }; route?: { path: string } };

/** The operation ids the app's endpoint routers serve (a repeat shows twice), and the paths its other routers serve. */
function mountedRoutes(app: Express): { served: string[]; others: string[] } {
  const served: string[] = [];
  const others: string[] = [];
  for (const layer of (app as unknown as { router: { stack: Layer[] } }).router.stack) {
    if (layer.handle.operationIds) served.push(...layer.handle.operationIds);
    else for (const inner of layer.handle.stack ?? []) if (inner.route) others.push(inner.route.path);
  }
  return { served, others };
}

describe('the app serves every endpoint the protocol describes', () => {
  it.each(ENDPOINTS.map((e) => [e.method.toUpperCase(), e.path] as const))('%s %s is routed', async (method, path) => {
    const concrete = path.replace(/\{[^}]+\}/g, 'AAAAAAAAAAAAAAAAAAAAAAAA');
    const res = await t.app.request(concrete, { method, ...(method === 'POST' ? { body: {} } : {}) });
    // Pages and images (an unknown link's 404 page included) are routed; the generic 404 is problem+json.
    const body = (/json/.test(res.headers.get('content-type') ?? '') ? await res.json() : {}) as { detail?: string };
    expect(body.detail ?? '').not.toMatch(/^There is no endpoint/);
  });

  it('serves each endpoint of the table with exactly one handler, and nothing of the API outside it', () => {
    const app = createApp({ ...appBase(), env: loadEnv({ DATABASE_URL: t.database.url }), testClock: fixedTestClock });
    const { served, others } = mountedRoutes(app);
    expect([...served].sort()).toEqual(ENDPOINTS.map((e) => e.operationId).sort());
    // What other routers serve is not the merchant's API: the reference, the SDK files, the pages' assets, and the
    // webhooks the processors send (answered the way each processor expects, not as problem+json).
    expect(others.length).toBeGreaterThan(0);
    for (const path of others) expect(path, path).toMatch(/^\/(docs|openapi\.json|sdk\/|pay-assets\/|processors\/(stripe|adyen)\/webhooks$)/);
  });

  it('production serves the table less its sandbox-only endpoints', () => {
    const env = loadEnv({ DATABASE_URL: t.database.url, SVC_MODE: 'production', PUBLIC_BASE_URL: 'https://pay.example.com' });
    const { served } = mountedRoutes(createApp({ ...appBase(), env }));
    expect([...served].sort()).toEqual(
      ENDPOINTS.filter((e) => !e.sandboxOnly)
        .map((e) => e.operationId)
        .sort(),
    );
  });

  it('answers a malformed path parameter as the description says: 400 validation_failed, listed; a page its 404 page, an image 404 not_found', async () => {
    const withParameters = ENDPOINTS.filter((e) => e.path.includes('{'));
    expect(withParameters.length).toBeGreaterThan(10);
    for (const e of withParameters) {
      const method = e.method.toUpperCase();
      const byCredential = e.auth.some((who) => who === 'merchant' || who === 'merchant_key' || who === 'device');
      const res = await t.app.request(e.path.replace(/\{[^}]+\}/g, 'not~one'), {
        method,
        headers: byCredential ? { authorization: `Bearer ${t.merchant.apiKey}` } : {},
        ...(method === 'POST' ? { body: {} } : {}),
      });
      if (e.response.contentType === 'text/html') {
        expect(res.status, e.operationId).toBe(404);
        expect(res.headers.get('content-type'), e.operationId).toMatch(/^text\/html/);
        continue;
      }
      const problem = (await res.json()) as { code: string };
      if (e.response.contentType === 'image/svg+xml') {
        expect([res.status, problem.code], e.operationId).toEqual([404, 'not_found']);
        continue;
      }
      expect([res.status, problem.code], e.operationId).toEqual([400, 'validation_failed']);
      expect(e.errors, e.operationId).toContain('validation_failed');
    }
  });

  it('/openapi.json lists the same operations', async () => {
    const doc = (await (await t.app.request('/openapi.json')).json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    for (const e of ENDPOINTS) expect(doc.paths[e.path]?.[e.method], `${e.method} ${e.path}`).toBeDefined();
  });
});

describe('ETags', () => {
  it('the GETs a client revalidates carry their own and answer 304 to it; API answers carry none', async () => {
    const created = await t.client.init({ amount: 1, currency: 'USD' });
    const linkPath = new URL(created.body.transactionPage.qrURL).pathname;
    for (const path of ['/openapi.json', '/docs', '/docs/errors', '/sdk/manifest.json', `${linkPath}/qr.svg`]) {
      const first = await t.app.request(path);
      expect(first.status, path).toBe(200);
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      const again = await t.app.request(path, { headers: { 'if-none-match': etag! } });
      expect(again.status, path).toBe(304);
      expect(await again.text(), path).toBe('');
    }
    // Not hashed for: a merchant's API answers.
    expect(created.headers.get('etag')).toBeNull();
    const status = await t.app.request(`/transactions/${created.body.TransactionNumber}`, { headers: { authorization: `Bearer ${t.merchant.apiKey}` } });
    expect(status.status).toBe(200);
    expect(status.headers.get('etag')).toBeNull();
  });
});

describe('sandbox features reach the core only through their ports', () => {
  const base = appBase;

  it('any test clock behind the port serves /sandbox/clock in sandbox mode', async () => {
    const server = http.createServer(createApp({ ...base(), env: loadEnv({ DATABASE_URL: t.database.url }), testClock: fixedTestClock }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/sandbox/clock`, {
        headers: { authorization: `Bearer ${t.merchant.apiKey}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ now: '2030-01-01T01:00:00.000Z', offsetSeconds: 3_600 });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('production refuses a test clock', () => {
    const env = loadEnv({ DATABASE_URL: t.database.url, SVC_MODE: 'production', PUBLIC_BASE_URL: 'https://pay.example.com' });
    expect(() => createApp({ ...base(), env, testClock: fixedTestClock })).toThrow(/test clock/);
  });
});
