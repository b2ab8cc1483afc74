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

describe('demo merchant backend', () => {
  it('commits through the service with its API key and gives the browser only the client ID', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-'));
    const file = path.join(dir, 'creds.json');
    await fs.writeFile(file, JSON.stringify(credentials));
    const calls: { url: string; init: RequestInit }[] = [];
    const base = await start(file, (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify({ success: true, transactionNumber: 'T1', transactionStatus: 0, paymentDetails: null, confirmation: null, transaction: {} }), { status: 200 });
    }) as typeof fetch);
    const config = await (await fetch(`${base}/api/config`)).text();
    expect(JSON.parse(config)).toEqual({ clientId: 'ck_x', serviceUrl: 'http://service.test', sdkUrl: 'http://service.test/sdk/elements/1.1.1/sdk.js' });
    const res = await fetch(`${base}/api/checkout/commit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ transactionNumber: 'T1', amount: 2500, currency: 'USD' }) });
    expect(res.status).toBe(200);
    expect(calls[0]!.url).toBe('http://service.test/transactions/T1/commit');
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe('Bearer sk_x');
    const bad = await fetch(`${base}/api/checkout/commit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ transactionNumber: 'T1', amount: -1, currency: 'USD' }) });
    expect(bad.status).toBe(400);
    await fs.rm(dir, { recursive: true });
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
