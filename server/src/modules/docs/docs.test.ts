import { API_ERROR_CODES, API_ERRORS, ENDPOINTS, SANDBOX_TEST_CARDS, TRANSACTION_STATUSES, WEBHOOK_EVENT_TYPES } from '@svc/protocol';
import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../env';
import { docsRouter } from './docs.routes';
import { anchorId, escapeHtml, inlineMarkdown } from './html';

const SERVER_URL = 'http://localhost:8080';

/** The docs router alone on a bare Express app: it needs nothing but the environment. */
async function serve(vars: Record<string, string>): Promise<{ get(path: string): Promise<Response>; close(): Promise<void> }> {
  const env = loadEnv({ LOG_LEVEL: 'silent', ...vars });
  const app = express();
  app.use(docsRouter({ env }));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get: (path) => fetch(`${base}${path}`),
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

let sandbox: Awaited<ReturnType<typeof serve>>;
let production: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  sandbox = await serve({ PUBLIC_BASE_URL: SERVER_URL });
  production = await serve({
    SVC_MODE: 'production',
    PUBLIC_BASE_URL: 'https://pay.example.com',
    DATABASE_URL: 'postgres://svc@db.invalid/svc',
  });
});
afterAll(async () => {
  await sandbox.close();
  await production.close();
});

describe('GET /openapi.json', () => {
  it('answers the OpenAPI 3.1 document for this server, cacheable for five minutes', async () => {
    const res = await sandbox.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const document = (await res.json()) as { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers[0]?.url).toBe(SERVER_URL);
    expect(document.paths['/transactions/init']?.post).toBeDefined();
    expect(document.paths['/sandbox/clock']?.get).toBeDefined();
  });

  it('leaves sandbox-only endpoints out in production', async () => {
    const document = (await (await production.get('/openapi.json')).json()) as { servers: { url: string }[]; paths: Record<string, unknown> };
    expect(document.servers[0]?.url).toBe('https://pay.example.com');
    expect(document.paths['/transactions/init']).toBeDefined();
    expect(document.paths['/sandbox/clock']).toBeUndefined();
    expect(document.paths['/sandbox/messages']).toBeUndefined();
  });
});

describe('GET /docs', () => {
  it('is a self-contained HTML page that covers every endpoint and every status', async () => {
    const res = await sandbox.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    for (const endpoint of ENDPOINTS) {
      expect(html, endpoint.path).toContain(escapeHtml(endpoint.path));
      expect(html).toContain(`id="op-${endpoint.operationId}"`);
    }
    for (const status of TRANSACTION_STATUSES) expect(html).toContain(status.statusName);
    expect(html.toLowerCase()).not.toContain('<script');
    const urls = html.match(/https?:\/\/[^\s"'<>)]+/g) ?? [];
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith(SERVER_URL), url).toBe(true);
  });

  it("shows request fields, the transaction's spec field names, callers, idempotency and linked error codes", async () => {
    const html = await (await sandbox.get('/docs')).text();
    expect(html).toContain('<h2 id="authentication">Authentication</h2>');
    expect(html).toContain('<h2 id="errors">Errors</h2>');
    expect(html).toContain('<code>products[].quantity</code>');
    expect(html).toContain('<code>TransactionNumber</code>');
    expect(html).toContain('<code>paymentCommit.messsage</code>');
    expect(html).toContain('Who may call');
    expect(html).toContain('Idempotency-Key');
    expect(html).toContain('href="/docs/errors#amount_exceeds_available"');
    expect(html).toContain('href="#schema-Transaction"');
    expect(html).toContain('<dt>Query parameter <code>startingAfter</code></dt>');
    expect(html).toContain('<dt>Query parameter <code>posData[key]</code></dt>');
  });

  it('documents the refund endpoint, its refusals, and when to void instead of refunding', async () => {
    const html = await (await sandbox.get('/docs')).text();
    expect(html).toContain('/transactions/{transactionNumber}/refund');
    expect(html).toContain('Void or refund');
    for (const code of ['nothing_to_refund', 'authorization_active', 'amount_exceeds_refundable', 'refund_declined']) {
      expect(html).toContain(`/docs/errors#${code}`);
    }
    const errors = await (await sandbox.get('/docs/errors')).text();
    expect(errors).toContain('id="refund_declined"');
  });

  it('covers what lies beyond the endpoints: callbacks and both verifications, the websocket, the test cards, the SDKs', async () => {
    const html = await (await sandbox.get('/docs')).text();
    for (const [id, title] of [
      ['callbacks', 'Callbacks and their verification'],
      ['websocket', 'The websocket'],
      ['test-cards', 'Test cards'],
      ['sdks', 'The SDKs'],
    ]) {
      expect(html).toContain(`<h2 id="${id}">${title}</h2>`);
      expect(html).toContain(`<a href="#${id}">${title}</a>`);
    }
    for (const phrase of ['HMAC-Authorization', 'webhook-signature', 'verifyCallback', 'afterSequence', '/sdk/elements/1.1.1/sdk.js', '@svc/node']) {
      expect(html, phrase).toContain(`<code>${escapeHtml(phrase)}</code>`);
    }
    expect(html).toContain(escapeHtml('"type": "transaction.updated"'));
    for (const card of SANDBOX_TEST_CARDS) expect(html).toContain(card.number.replace(/(\d{4})(?=\d)/g, '$1 '));
    const production_ = await (await production.get('/docs')).text();
    expect(production_).toContain('<h2 id="callbacks">');
    expect(production_).not.toContain('id="test-cards"');
  });

  it('does not list sandbox-only endpoints in production', async () => {
    const html = await (await production.get('/docs')).text();
    expect(html).toContain('/transactions/init');
    expect(html).not.toContain('/sandbox/clock');
  });
});

describe('GET /docs/errors', () => {
  it('has an anchor per error code, with its status, title and the endpoints that answer it', async () => {
    const res = await sandbox.get('/docs/errors');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    const html = await res.text();
    expect(html).toContain('id="card_declined"');
    for (const code of API_ERROR_CODES) expect(html).toContain(`id="${code}"`);
    const row = html.slice(html.indexOf('id="amount_exceeds_available"'));
    expect(row.slice(0, row.indexOf('</tr>'))).toMatch(/<td>409<\/td>.*href="\/docs#op-pay"/s);
    expect(html.toLowerCase()).not.toContain('<script');
  });

  it('says for every code what causes it and what to do about it', async () => {
    const html = await (await sandbox.get('/docs/errors')).text();
    expect(html).toContain('<th scope="col">Cause</th><th scope="col">What to do</th>');
    for (const code of API_ERROR_CODES) {
      const { cause, fix } = API_ERRORS[code];
      expect(cause.length, code).toBeGreaterThan(20);
      expect(fix.length, code).toBeGreaterThan(10);
      const start = html.indexOf(`id="${code}"`);
      const row = html.slice(start, html.indexOf('</tr>', start));
      expect(row, code).toContain(inlineMarkdown(cause));
      expect(row, code).toContain(inlineMarkdown(fix));
    }
  });
});

describe('GET /docs/events', () => {
  it('lists every event type a webhook endpoint may enable, each with an example event of its type', async () => {
    const res = await sandbox.get('/docs/events');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    const html = await res.text();
    for (const { type } of WEBHOOK_EVENT_TYPES) {
      const start = html.indexOf(`<h2 id="${anchorId(type)}">`);
      expect(start, type).toBeGreaterThan(0);
      const section = html.slice(start, html.indexOf('</section>', start));
      expect(section, type).toContain(`&quot;type&quot;: &quot;${type}&quot;`);
      expect(section.includes('&quot;refund&quot;'), type).toBe(type === 'refund.updated' || type === 'transaction.refunded');
    }
    expect(html).toContain('webhook-signature');
    expect(html.toLowerCase()).not.toContain('<script');
  });
});

describe('the processors in the docs', () => {
  it('/docs has the capability table per connector', async () => {
    const html = await (await sandbox.get('/docs')).text();
    const section = html.slice(html.indexOf('<h2 id="processors">'));
    const table = section.slice(0, section.indexOf('</table>'));
    expect(table).toMatch(/<th scope="col">Stripe<\/th>/);
    // Stripe captures once: several partial captures read "no" in its column, "yes" in the sandbox's.
    expect(table).toMatch(/several partial captures <code>multipleCaptures<\/code><\/th><td>yes<\/td><td>no<\/td>/);
    // Adyen keeps no saved cards: tokenize and token charges read "no" in its column only.
    expect(table).toMatch(/<code>savedCards<\/code><\/th><td>yes<\/td><td>yes<\/td><td>no<\/td>/);
  });

  it("/docs/errors maps each connector's decline codes to the service's", async () => {
    const html = await (await sandbox.get('/docs/errors')).text();
    const section = html.slice(html.indexOf('id="processor-declines"'));
    expect(section).toMatch(/<td>Stripe<\/td><td><code>insufficient_funds<\/code><\/td><td><a href="#insufficient_funds">/);
    expect(section).toMatch(/<td>Stripe<\/td><td><code>incorrect_cvc<\/code><\/td><td><a href="#incorrect_cvc">/);
  });
});
