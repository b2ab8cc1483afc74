import { ENDPOINTS } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './test/harness';

const t = useTestApp();

describe('the app serves every endpoint the protocol describes', () => {
  it.each(ENDPOINTS.map((e) => [e.method.toUpperCase(), e.path] as const))('%s %s is routed', async (method, path) => {
    const concrete = path.replace(/\{[^}]+\}/g, 'AAAAAAAAAAAAAAAAAAAAAAAA');
    const res = await t.app.request(concrete, { method, ...(method === 'POST' ? { body: {} } : {}) });
    // Pages and images (an unknown link's 404 page included) are routed; the generic 404 is problem+json.
    const body = (/json/.test(res.headers.get('content-type') ?? '') ? await res.json() : {}) as { detail?: string };
    expect(body.detail ?? '').not.toMatch(/^There is no endpoint/);
  });

  it('/openapi.json lists the same operations', async () => {
    const doc = (await (await t.app.request('/openapi.json')).json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    for (const e of ENDPOINTS) expect(doc.paths[e.path]?.[e.method], `${e.method} ${e.path}`).toBeDefined();
  });
});
