import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { useTestApp } from '../test/harness';

const logLines: { level: string; msg?: string }[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as { level: string });
    done();
  },
});
const t = useTestApp({ logger: createLogger({ level: 'info', destination }) });
/** A line at `error` or above pages someone. */
const isError = (line: { level: string }) => line.level === 'error' || line.level === 'fatal';

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

  it('refuses a body nested deeper than any request needs with 400, before anything walks it, and keeps serving', async () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const res = await t.app.request('/pay/anything', { method: 'POST', headers: { 'content-type': 'application/json' }, rawBody: `{"a":${deep}}` });
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body.code).toBe('validation_failed');
    expect(JSON.stringify(body.errors)).toContain('nested more than 32 levels');
    expect((await t.app.request('/healthz')).status).toBe(200);
  });

  it('refuses text PostgreSQL cannot store (a lone surrogate, U+0000), in values and keys, with its path', async () => {
    const lone = await t.app.request('/transactions/init', {
      method: 'POST',
      headers: { authorization: `Bearer ${t.merchant.apiKey}`, 'content-type': 'application/json' },
      rawBody: '{"amount":1,"currency":"USD","posData":{"note":"\\ud800"}}',
    });
    expect(lone.status).toBe(400);
    expect((await problem(lone)).errors).toEqual([{ path: 'posData.note', message: expect.stringMatching(/well-formed Unicode/) }]);
    const key = await t.app.request('/transactions/init', {
      method: 'POST',
      headers: { authorization: `Bearer ${t.merchant.apiKey}`, 'content-type': 'application/json' },
      rawBody: '{"amount":1,"currency":"USD","posData":{"a\\u0000b":1}}',
    });
    expect(key.status).toBe(400);
    expect((await problem(key)).errors).toEqual([{ path: 'posData.a\u0000b', message: expect.stringMatching(/U\+0000/) }]);
    // A surrogate pair (an emoji) is fine.
    const emoji = await t.client.init({ amount: 1, currency: 'USD', posData: { note: '\ud83d\ude00' } });
    expect(emoji.status).toBe(200);
  });

  it('a body that does not decode as its Content-Encoding says: 400 malformed_request, and no error logged', async () => {
    const errorsBefore = logLines.filter(isError).length;
    for (const encoding of ['deflate', 'br', 'gzip']) {
      const res = await t.app.request('/transactions/init', {
        method: 'POST',
        headers: { authorization: `Bearer ${t.merchant.apiKey}`, 'content-type': 'application/json', 'content-encoding': encoding },
        rawBody: '{"amount":1,"currency":"USD"}',
      });
      expect(res.status).toBe(400);
      expect((await problem(res)).code).toBe('malformed_request');
    }
    expect(logLines.filter(isError).length).toBe(errorsBefore);
  });

  it('a path with bad percent-encoding: 400 malformed_request, and no error logged', async () => {
    const errorsBefore = logLines.filter(isError).length;
    for (const path of ['/pay/%ZZ/state', '/transactions/%E0%A4%A', '/sdk/sessions/%/payments']) {
      const res = await t.app.request(
        path,
        path.startsWith('/pay') ? {} : { method: path.startsWith('/sdk') ? 'POST' : 'GET', headers: { authorization: `Bearer ${t.merchant.apiKey}` } },
      );
      expect(res.status, path).toBe(400);
      expect((await problem(res)).code).toBe('malformed_request');
    }
    expect(logLines.filter(isError).length).toBe(errorsBefore);
  });

  it('every answer, JSON and problem+json alike, says X-Content-Type-Options: nosniff', async () => {
    const answers = [
      await t.app.request('/healthz'),
      await t.app.request('/nope'),
      await t.client.init({ amount: 1, currency: 'USD' }).then((r) => ({ headers: r.headers })),
      await t.app.request('/transactions/init', { method: 'POST', headers: { 'content-type': 'application/json' }, rawBody: '{' }),
    ];
    for (const answer of answers) expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const kept = await t.app.request('/healthz', { headers: { 'x-request-id': 'trace-12345678' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-12345678');
    const replaced = await t.app.request('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
