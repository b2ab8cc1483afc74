import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/harness';

const t = useTestApp();

async function problem(res: Response) {
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status: res.status, requestId: res.headers.get('x-request-id') });
  expect(typeof body.title).toBe('string');
  expect(body.type).toBe(`/docs/errors#${String(body.code)}`);
  return body;
}

describe('problem+json', () => {
  it('answers an unknown endpoint with 404 not_found', async () => {
    const body = await problem(await t.app.request('/nope'));
    expect(body.code).toBe('not_found');
  });

  it('answers malformed JSON with 400 malformed_json', async () => {
    const res = await t.app.request('/transactions/init', { method: 'POST', headers: { 'content-type': 'application/json' }, rawBody: '{"amount": 1,' });
    expect(res.status).toBe(400);
    expect((await problem(res)).code).toBe('malformed_json');
  });

  it('answers a body of another content type with 415 unsupported_media_type', async () => {
    const res = await t.app.request('/transactions/init', { method: 'POST', headers: { 'content-type': 'text/plain' }, rawBody: 'amount=1' });
    expect(res.status).toBe(415);
    expect((await problem(res)).code).toBe('unsupported_media_type');
  });

  it('answers a body over 100 KB with 413 payload_too_large', async () => {
    const res = await t.app.request('/transactions/init', { body: { posData: { blob: 'x'.repeat(110 * 1024) } } });
    expect(res.status).toBe(413);
    expect((await problem(res)).code).toBe('payload_too_large');
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const kept = await t.app.request('/healthz', { headers: { 'x-request-id': 'trace-12345678' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-12345678');
    const replaced = await t.app.request('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
