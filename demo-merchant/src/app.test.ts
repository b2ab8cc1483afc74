import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoApp, type DemoStatus } from './app';
import { loadDemoConfig } from './config';
import { generateTestCallbackHeaders } from '@svc/protocol';

const servers: http.Server[] = [];
afterEach(() => servers.forEach((s) => s.close()));

async function start(file: string, fetchImpl: typeof fetch) {
  const config = loadDemoConfig({ DEMO_CREDENTIALS_FILE: file, SERVICE_URL: 'http://service.test/' });
  const server = http.createServer(createDemoApp(config, fetchImpl));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const credentials = {
  merchantId: 'm-1',
  branchId: 'b-1',
  apiKey: 'sk_x',
  branchApiKey: 'bk_x',
  clientId: 'ck_x',
  deviceId: 'dev_x',
  hmacSecret: 'whsec_x',
};

describe('demo merchant status', () => {
  it('reports the service and the credentials, and never sends a secret to the browser', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-'));
    const file = path.join(dir, 'creds.json');
    const seen: string[] = [];
    const base = await start(file, (async (url: string) => {
      seen.push(url);
      return new Response('{}', { status: 200 });
    }) as typeof fetch);

    let status = (await (await fetch(`${base}/api/status`)).json()) as DemoStatus;
    expect(status.credentials.loaded).toBe(false);
    expect(status.service).toEqual({ url: 'http://service.test', reachable: true, status: 200 });
    expect(seen).toEqual(['http://service.test/healthz']);

    await fs.writeFile(file, JSON.stringify(credentials));
    const text = await (await fetch(`${base}/api/status`)).text();
    status = JSON.parse(text) as DemoStatus;
    expect(status.credentials).toMatchObject({ loaded: true, merchantId: 'm-1' });
    for (const secret of ['sk_x', 'bk_x', 'dev_x', 'whsec_x']) expect(text).not.toContain(secret);
    await fs.rm(dir, { recursive: true });
  });

  it('says so when the service is down', async () => {
    const base = await start('/nonexistent/creds.json', (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch);
    const status = (await (await fetch(`${base}/api/status`)).json()) as DemoStatus;
    expect(status.service).toMatchObject({ reachable: false, status: null });
  });

  it('serves the shop page', async () => {
    const base = await start('/nonexistent/creds.json', fetch);
    const page = await fetch(base);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>Demo merchant</h1>');
  });
});

const INTEGRITY = `sha384-${'A'.repeat(64)}`;
const MANIFEST = { files: { elements: { url: 'http://service.test/sdk/elements/1.1.1/sdk.js', integrity: INTEGRITY }, iframe: { url: 'http://service.test/sdk/iframe/1.0.9/sdk.js', integrity: `sha384-${'B'.repeat(64)}` } } };
const AUTH_TOKEN = 'tok_auth_secret_123';

/** The service as the demo's backend sees it: the manifest, commit and pay, with every call recorded. */
function fakeService(paymentDetails: { type: 'authorization' | 'token'; token: string } | null = null) {
  const calls: { url: string; init: RequestInit; body: Record<string, unknown> }[] = [];
  let captured = 0;
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const authorization = () => (paymentDetails?.type === 'authorization' ? { status: captured < 2500 ? 'active' : 'captured', authorizedCents: 2500, capturedCents: captured, releasedCents: 0, availableCents: 2500 - captured } : null);
  const fetchImpl = (async (url: string, init: RequestInit = {}) => {
    calls.push({ url, init, body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {} });
    if (url.endsWith('/sdk/manifest.json')) return json(MANIFEST);
    const commit = /\/transactions\/([^/]+)\/commit$/.exec(url);
    if (commit) {
      const status = paymentDetails?.type === 'authorization' ? 5 : 0;
      const transaction = { TransactionNumber: commit[1], status, statusName: status === 5 ? 'Authorized' : 'Approved', authorization: authorization(), paymentDetails };
      return json({ success: true, transactionNumber: commit[1], transactionStatus: status, paymentDetails, confirmation: null, transaction });
    }
    if (url.endsWith('/transactions/pay')) {
      captured += calls.at(-1)!.body.amount as number;
      const status = captured < 2500 ? 6 : 7;
      return json({ payment: { amountCents: calls.at(-1)!.body.amount }, transaction: { TransactionNumber: 'T1', status, statusName: status === 6 ? 'PartiallyCaptured' : 'Captured', authorization: authorization() } });
    }
    return json({}, 404);
  }) as typeof fetch;
  return { calls, fetchImpl };
}

async function withCredentials(): Promise<{ file: string; cleanup: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-'));
  const file = path.join(dir, 'creds.json');
  await fs.writeFile(file, JSON.stringify(credentials));
  return { file, cleanup: () => fs.rm(dir, { recursive: true }) };
}

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('demo merchant backend', () => {
  it('gives the browser the client ID and the SDK with its SRI hash from the service manifest, and no secret', async () => {
    const { file, cleanup } = await withCredentials();
    const service = fakeService();
    const base = await start(file, service.fetchImpl);
    const text = await (await fetch(`${base}/api/config`)).text();
    expect(JSON.parse(text)).toEqual({ clientId: 'ck_x', serviceUrl: 'http://service.test', sdkUrl: 'http://service.test/sdk/elements/1.1.1/sdk.js', sdkIntegrity: INTEGRITY });
    expect(service.calls.map((call) => call.url)).toEqual(['http://service.test/sdk/manifest.json']);
    for (const secret of ['sk_x', 'bk_x', 'dev_x', 'whsec_x']) expect(text).not.toContain(secret);
    await cleanup();
  });

  it('does not offer the SDK without its SRI hash', async () => {
    const { file, cleanup } = await withCredentials();
    const base = await start(file, (async () => new Response(JSON.stringify({ files: {} }), { status: 200 })) as typeof fetch);
    const res = await fetch(`${base}/api/config`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toContain('/sdk/elements/1.1.1/sdk.js');
    await cleanup();
  });

  it("commits the order's amount with its API key, never the browser's, and keeps the token on the server", async () => {
    const { file, cleanup } = await withCredentials();
    const service = fakeService({ type: 'token', token: 'tok_card_secret_456' });
    const base = await start(file, service.fetchImpl);
    const created = await post(`${base}/api/checkout/order`, { amount: 1, currency: 'EUR' });
    expect(created.status).toBe(201);
    const order = (await created.json()) as { orderId: string };
    expect(order).toEqual({ orderId: expect.stringMatching(/^ord_/), transactionNumber: null, status: null, statusName: null, amount: 2500, currency: 'USD' });

    const res = await post(`${base}/api/checkout/commit`, { orderId: order.orderId, transactionNumber: 'T1', amount: 1, currency: 'EUR' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ orderId: order.orderId, transactionNumber: 'T1', status: 0, statusName: 'Approved', amount: 2500, currency: 'USD' });
    expect(text).not.toContain('tok_card_secret_456');
    const commit = service.calls.find((call) => call.url.endsWith('/commit'))!;
    expect(commit.url).toBe('http://service.test/transactions/T1/commit');
    expect((commit.init.headers as Record<string, string>).authorization).toBe('Bearer sk_x');
    expect(commit.body).toMatchObject({ amount: 2500, currency: 'USD' });

    const again = await post(`${base}/api/checkout/commit`, { orderId: order.orderId, transactionNumber: 'T2' });
    expect([again.status, ((await again.json()) as { code: string }).code]).toEqual([409, 'order_already_paid']);
    const unknown = await post(`${base}/api/checkout/commit`, { orderId: 'ord_00000000-0000-4000-8000-000000000000', transactionNumber: 'T3' });
    expect([unknown.status, ((await unknown.json()) as { code: string }).code]).toEqual([404, 'order_not_found']);
    const bad = await post(`${base}/api/checkout/commit`, { transactionNumber: 'T1', amount: 2500, currency: 'USD' });
    expect(bad.status).toBe(400);
    const tokenized = await post(`${base}/api/checkout/capture`, { orderId: order.orderId });
    expect([tokenized.status, ((await tokenized.json()) as { code: string }).code]).toEqual([409, 'nothing_to_capture']);
    expect(service.calls.filter((call) => call.url.endsWith('/commit'))).toHaveLength(1);
    expect(service.calls.filter((call) => call.url.endsWith('/pay'))).toHaveLength(0);
    await cleanup();
  });

  it('commits one order once, even when two commits race', async () => {
    const { file, cleanup } = await withCredentials();
    const service = fakeService();
    const slow = (async (url: string, init?: RequestInit) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return service.fetchImpl(url, init);
    }) as typeof fetch;
    const base = await start(file, slow);
    const { orderId } = (await (await post(`${base}/api/checkout/order`, {})).json()) as { orderId: string };
    const answers = await Promise.all(['T1', 'T2'].map((transactionNumber) => post(`${base}/api/checkout/commit`, { orderId, transactionNumber })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(service.calls.filter((call) => call.url.endsWith('/commit'))).toHaveLength(1);
    await cleanup();
  });

  it("captures only this shop's orders, with the token it kept, up to what is still authorized", async () => {
    const { file, cleanup } = await withCredentials();
    const service = fakeService({ type: 'authorization', token: AUTH_TOKEN });
    const base = await start(file, service.fetchImpl);
    const { orderId } = (await (await post(`${base}/api/checkout/order`, {})).json()) as { orderId: string };
    const early = await post(`${base}/api/checkout/capture`, { orderId });
    expect([early.status, ((await early.json()) as { code: string }).code], 'not committed yet').toEqual([409, 'nothing_to_capture']);
    const committed = await (await post(`${base}/api/checkout/commit`, { orderId, transactionNumber: 'T1' })).text();
    expect(JSON.parse(committed)).toMatchObject({ status: 5, statusName: 'Authorized' });
    expect(committed).not.toContain(AUTH_TOKEN);

    // The old unauthenticated shape (any token, any amount) is refused.
    expect((await post(`${base}/api/checkout/capture`, { token: AUTH_TOKEN, amount: 2500 })).status).toBe(400);
    const unknown = await post(`${base}/api/checkout/capture`, { orderId: 'ord_00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    const over = await post(`${base}/api/checkout/capture`, { orderId, amount: 2501 });
    expect([over.status, ((await over.json()) as { code: string }).code]).toEqual([409, 'amount_exceeds_authorized']);
    expect(service.calls.filter((call) => call.url.endsWith('/pay'))).toHaveLength(0);

    const partial = await post(`${base}/api/checkout/capture`, { orderId, amount: 1000 });
    expect(await partial.json()).toEqual({ orderId, transactionNumber: 'T1', status: 6, statusName: 'PartiallyCaptured', amount: 2500, currency: 'USD', captured: 1000 });
    const rest = await (await post(`${base}/api/checkout/capture`, { orderId })).text();
    expect(JSON.parse(rest)).toMatchObject({ status: 7, statusName: 'Captured', captured: 1500 });
    expect(rest).not.toContain(AUTH_TOKEN);
    const pays = service.calls.filter((call) => call.url.endsWith('/transactions/pay'));
    expect(pays.map((call) => call.body)).toEqual([{ token: AUTH_TOKEN, amount: 1000 }, { token: AUTH_TOKEN, amount: 1500 }]);
    expect((pays[0]!.init.headers as Record<string, string>).authorization).toBe('Bearer sk_x');
    const done = await post(`${base}/api/checkout/capture`, { orderId });
    expect(done.status).toBe(409);
    await cleanup();
  });

  it('verifies callbacks on the raw body and lists them', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-'));
    const file = path.join(dir, 'creds.json');
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    await fs.writeFile(file, JSON.stringify({ ...credentials, hmacSecret: secret }));
    const base = await start(file, fetch);
    const body = JSON.stringify({ TransactionNumber: 'T9', status: 0, statusName: 'Approved' });
    const headers = await generateTestCallbackHeaders(secret, body);
    const good = await fetch(`${base}/api/service-callbacks`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    expect(good.status).toBe(204);
    const forged = await fetch(`${base}/api/service-callbacks`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: body.replace('0', '1') });
    expect(forged.status).toBe(401);
    const list = (await (await fetch(`${base}/api/callbacks`)).json()) as { callbacks: { verified: boolean; transactionNumber: string }[] };
    expect(list.callbacks.map((c) => c.verified)).toEqual([false, true]);
    expect(list.callbacks[1]!.transactionNumber).toBe('T9');
    await fs.rm(dir, { recursive: true });
  });
});
