import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer } from 'ws';
import { createDemo, createDemoApp, type DemoStatus } from './app';
import { loadDemoConfig } from './config';
import { generateTestCallbackHeaders, TransactionSchema } from '@svc/protocol';

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
    for (const name of ['checkout', 'pay-by-link', 'pos', 'back-office']) expect((await fetch(`${base}/${name}.html`)).status).toBe(200);
    const icon = await fetch(`${base}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });
});

const INTEGRITY = `sha384-${'A'.repeat(64)}`;
const MANIFEST = {
  files: {
    elements: { url: 'http://service.test/sdk/elements/1.1.1/sdk.js', integrity: INTEGRITY },
    iframe: { url: 'http://service.test/sdk/iframe/1.0.9/sdk.js', integrity: `sha384-${'B'.repeat(64)}` },
  },
};
const AUTH_TOKEN = 'tok_auth_secret_123';
const problem = (status: number, code: string, detail: string) =>
  new Response(JSON.stringify({ type: `/docs/errors#${code}`, title: code, status, code, detail, requestId: 'req_1' }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });

/** The service as the demo's backend sees it: the manifest, commit, pay, void, init, messages; every call recorded. */
function fakeService(paymentDetails: { type: 'authorization' | 'token'; token: string } | null = null) {
  const calls: { url: string; init: RequestInit; body: Record<string, unknown> }[] = [];
  let captured = 0;
  let sequence = 1;
  const refunds: { refundId: string; amountCents: number; reason: string }[] = [];
  const refunded = () => refunds.reduce((sum, r) => sum + r.amountCents, 0);
  let refuseCommit: Response | null = null;
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const authorization = () =>
    paymentDetails?.type === 'authorization'
      ? { status: captured < 2500 ? 'active' : 'captured', authorizedCents: 2500, capturedCents: captured, releasedCents: 0, availableCents: 2500 - captured }
      : null;
  const transaction = (TransactionNumber: string, status: number, statusName: string) => {
    const hold = authorization();
    const now = new Date().toISOString();
    const links = { iOSLink: '', androidLink: '', qrURL: `http://service.test/pay/link_${TransactionNumber}` };
    return TransactionSchema.parse({
      TransactionNumber,
      date: now,
      amount: 25,
      amountCents: 2500,
      currency: 'USD',
      status,
      statusName,
      methodType: hold ? 'authorize' : 'sale',
      pos: null,
      posReceiptsEndpoint: '',
      posData: null,
      businessName: 'Demo',
      businessId: 1,
      timeoutDate: null,
      paymentMethodData: { PaymentType: null, directAppLinks: links },
      SMS: 'Not requested',
      paymentCommit: { messsage: '', isPaymentCommitted: true, secondsToCommit: 0, commitLink: null },
      products: [],
      productSumMismatch: false,
      confirmations: [],
      confirmation: null,
      transactionPage: links,
      balance: 0,
      paymentDetails,
      authorization: hold && { ...hold, expiresAt: null, processor: 'alpha', supportsCloseAuth: true },
      payments: [],
      refundedCents: refunded(),
      refundableCents: status === 0 || status === 13 ? 2500 - refunded() : 0,
      refunds: refunds.map((r) => ({
        ...r,
        currency: 'USD',
        status: 'succeeded',
        description: null,
        failureCode: null,
        processorReference: null,
        createdAt: now,
        updatedAt: now,
      })),
      lastDeclineCode: null,
      lastDeclineProcessorCode: null,
      sequence: ++sequence,
      updatedAt: now,
      createdAt: now,
    });
  };
  const fetchImpl = (async (url: string, init: RequestInit = {}) => {
    calls.push({ url, init, body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {} });
    if (url.endsWith('/sdk/manifest.json')) return json(MANIFEST);
    const commit = /\/transactions\/([^/]+)\/commit$/.exec(url);
    if (commit) {
      if (refuseCommit) return refuseCommit;
      const status = paymentDetails?.type === 'authorization' ? 5 : 0;
      return json({
        success: true,
        transactionNumber: commit[1],
        status,
        transactionStatus: status,
        paymentDetails,
        confirmation: null,
        transaction: transaction(commit[1]!, status, status === 5 ? 'Authorized' : 'Approved'),
      });
    }
    if (url.endsWith('/transactions/pay')) {
      const amount = calls.at(-1)!.body.amount as number;
      if (captured + amount > 2500) return problem(409, 'amount_exceeds_available', `Only ${2500 - captured} cents are still authorized.`);
      captured += amount;
      const status = captured < 2500 ? 6 : 7;
      return json({ payment: { amountCents: amount }, transaction: transaction('T1', status, status === 6 ? 'PartiallyCaptured' : 'Captured') });
    }
    const refund = /\/transactions\/([^/]+)\/refund$/.exec(url);
    if (refund) {
      const body = calls.at(-1)!.body;
      const amount = (body.amount as number | undefined) ?? 2500 - refunded();
      if (amount > 2500 - refunded()) return problem(409, 'amount_exceeds_refundable', `Only ${2500 - refunded()} cents are refundable on this transaction.`);
      refunds.push({ refundId: `rf_${refunds.length + 1}`, amountCents: amount, reason: (body.reason as string | undefined) ?? 'requested_by_customer' });
      const status = refunded() === 2500 ? 14 : 13;
      const after = transaction(refund[1]!, status, status === 14 ? 'Refunded' : 'PartiallyRefunded');
      return json({ refund: after.refunds.at(-1), transaction: after });
    }
    if (url.endsWith('/transactions/void')) return problem(409, 'authorization_not_active', 'This authorization is captured; nothing is left to void.');
    if (url.endsWith('/transactions/init')) return json(transaction('L1', 1, 'Pending'));
    if (url.endsWith('/sandbox/messages')) {
      return json({
        messages: [
          {
            messageId: 'm1',
            channel: 'sms',
            to: '+15555550100',
            body: 'Pay here: http://service.test/pay/link_L1',
            transactionNumber: 'L1',
            status: 'sent',
            createdAt: new Date().toISOString(),
          },
          { messageId: 'm0', channel: 'sms', to: '+1', body: 'other', transactionNumber: 'OTHER', status: 'sent', createdAt: new Date().toISOString() },
        ],
      });
    }
    if (/\/transactions\/[^/]+$/.test(url)) return json(transaction(url.split('/').at(-1)!, 11, 'Expired'));
    return json({}, 404);
  }) as typeof fetch;
  return { calls, fetchImpl, refuseCommitWith: (res: Response) => (refuseCommit = res) };
}

async function withCredentials(extra: Record<string, string> = {}): Promise<{ file: string; cleanup: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-'));
  const file = path.join(dir, 'creds.json');
  await fs.writeFile(file, JSON.stringify({ ...credentials, ...extra }));
  return { file, cleanup: () => fs.rm(dir, { recursive: true }) };
}

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const codeOf = async (res: Response) => [res.status, ((await res.json()) as { code: string }).code];

describe('demo merchant backend', () => {
  it('gives the browser the client ID and the chosen SDK with its SRI hash from the service manifest, and no secret', async () => {
    const { file, cleanup } = await withCredentials();
    const service = fakeService();
    const base = await start(file, service.fetchImpl);
    const text = await (await fetch(`${base}/api/config`)).text();
    expect(JSON.parse(text)).toEqual({
      clientId: 'ck_x',
      serviceUrl: 'http://service.test',
      sdkUrl: 'http://service.test/sdk/elements/1.1.1/sdk.js',
      sdkIntegrity: INTEGRITY,
    });
    expect(service.calls.map((call) => call.url)).toEqual(['http://service.test/sdk/manifest.json']);
    for (const secret of ['sk_x', 'bk_x', 'dev_x', 'whsec_x']) expect(text).not.toContain(secret);
    const iframe = (await (await fetch(`${base}/api/config?sdk=iframe`)).json()) as { sdkUrl: string; sdkIntegrity: string };
    expect(iframe).toMatchObject({ sdkUrl: 'http://service.test/sdk/iframe/1.0.9/sdk.js', sdkIntegrity: `sha384-${'B'.repeat(64)}` });
    expect((await fetch(`${base}/api/config?sdk=nope`)).status).toBe(400);
    await cleanup();
  });

  it('does not offer the SDK without its SRI hash', async () => {
    const { file, cleanup } = await withCredentials();
    const base = await start(file, (async () => new Response(JSON.stringify({ files: {} }), { status: 200 })) as typeof fetch);
    const res = await fetch(`${base}/api/config?sdk=express`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toContain('/sdk/express/1.0.0/sdk.js');
    await cleanup();
  });

  it('prices the cart with its own prices and refuses unknown products and empty carts', async () => {
    const { file, cleanup } = await withCredentials();
    const base = await start(file, fakeService().fetchImpl);
    const order = (await (
      await post(`${base}/api/checkout/order`, {
        items: [
          { productId: 'tea', quantity: 3 },
          { productId: 'mug', quantity: 1 },
        ],
        amount: 1,
      })
    ).json()) as { amount: number; description: string };
    expect(order).toMatchObject({ amount: 3 * 800 + 1250, currency: 'USD', description: 'Loose-leaf tea, 100 g × 3, Ceramic mug × 1' });
    expect(await codeOf(await post(`${base}/api/checkout/order`, { items: [{ productId: 'gold', quantity: 1 }] }))).toEqual([400, 'unknown_product']);
    expect(await codeOf(await post(`${base}/api/checkout/order`, { items: [] }))).toEqual([400, 'cart_empty']);
    await cleanup();
  });

  it("commits the order's amount with its API key, never the browser's, and keeps the token on the server", async () => {
    const { file, cleanup } = await withCredentials();
    const service = fakeService({ type: 'token', token: 'tok_card_secret_456' });
    const base = await start(file, service.fetchImpl);
    const created = await post(`${base}/api/checkout/order`, { methodType: 'tokenize' });
    expect(created.status).toBe(201);
    const order = (await created.json()) as { orderId: string };
    expect(order).toMatchObject({
      orderId: expect.stringMatching(/^ord_/),
      transactionNumber: null,
      status: null,
      amount: 2500,
      currency: 'USD',
      methodType: 'tokenize',
      channel: 'elements',
    });

    const res = await post(`${base}/api/checkout/commit`, { orderId: order.orderId, transactionNumber: 'T1', amount: 1, currency: 'EUR' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({
      orderId: order.orderId,
      transactionNumber: 'T1',
      status: 0,
      statusName: 'Approved',
      amount: 2500,
      holds: 'saved_card',
    });
    expect(text).not.toContain('tok_card_secret_456');
    const commit = service.calls.find((call) => call.url.endsWith('/commit'))!;
    expect(commit.url).toBe('http://service.test/transactions/T1/commit');
    expect((commit.init.headers as Record<string, string>).authorization).toBe('Bearer sk_x');
    expect(commit.body).toMatchObject({ amount: 2500, currency: 'USD' });

    expect(await codeOf(await post(`${base}/api/checkout/commit`, { orderId: order.orderId, transactionNumber: 'T2' }))).toEqual([409, 'order_already_paid']);
    expect(await codeOf(await post(`${base}/api/checkout/commit`, { orderId: 'ord_00000000-0000-4000-8000-000000000000', transactionNumber: 'T3' }))).toEqual([
      404,
      'order_not_found',
    ]);
    expect((await post(`${base}/api/checkout/commit`, { transactionNumber: 'T1', amount: 2500, currency: 'USD' })).status).toBe(400);
    expect(await codeOf(await post(`${base}/api/orders/${order.orderId}/capture`, {}))).toEqual([409, 'not_an_authorization']);
    expect(service.calls.filter((call) => call.url.endsWith('/commit'))).toHaveLength(1);
    expect(service.calls.filter((call) => call.url.endsWith('/pay'))).toHaveLength(0);

    // The saved card is charged again as a new order of the shop.
    const charge = await post(`${base}/api/orders/${order.orderId}/charge`, { amount: 700 });
    expect(charge.status).toBe(201);
    expect(service.calls.at(-1)!.body).toEqual({ token: 'tok_card_secret_456', amount: 700, currency: 'USD' });
    expect(await charge.text()).not.toContain('tok_card_secret_456');
    await cleanup();
  });

  it('keeps a refused commit on the order with the service code and detail, and the status the service now tells', async () => {
    const { file, cleanup } = await withCredentials();
    const service = fakeService();
    service.refuseCommitWith(problem(409, 'commit_window_expired', 'The commit window of this payment closed; the consumer pays again.'));
    const base = await start(file, service.fetchImpl);
    const { orderId } = (await (await post(`${base}/api/checkout/order`, {})).json()) as { orderId: string };
    const refused = await post(`${base}/api/checkout/commit`, { orderId, transactionNumber: 'T7' });
    expect([refused.status, await refused.json()]).toEqual([
      409,
      { code: 'commit_window_expired', message: 'The commit window of this payment closed; the consumer pays again.' },
    ]);
    const { orders } = (await (await fetch(`${base}/api/orders`)).json()) as {
      orders: { orderId: string; transactionNumber: string; statusName: string; lastRefusal: { action: string; code: string } }[];
    };
    expect(orders.find((o) => o.orderId === orderId)).toMatchObject({
      transactionNumber: 'T7',
      statusName: 'Expired',
      lastRefusal: { action: 'commit', code: 'commit_window_expired' },
    });
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

  it("captures only this shop's orders with the token it kept, and relays the service's refusals as it words them", async () => {
    const { file, cleanup } = await withCredentials();
    const service = fakeService({ type: 'authorization', token: AUTH_TOKEN });
    const base = await start(file, service.fetchImpl);
    const { orderId } = (await (await post(`${base}/api/checkout/order`, { methodType: 'authorize' })).json()) as { orderId: string };
    expect(await codeOf(await post(`${base}/api/orders/${orderId}/capture`, {})), 'not committed yet').toEqual([409, 'not_an_authorization']);
    const committed = await (await post(`${base}/api/checkout/commit`, { orderId, transactionNumber: 'T1' })).text();
    expect(JSON.parse(committed)).toMatchObject({ status: 5, statusName: 'Authorized', holds: 'authorization' });
    expect(committed).not.toContain(AUTH_TOKEN);

    expect((await post(`${base}/api/orders/not-an-order/capture`, { amount: 1 })).status).toBe(400);
    expect((await post(`${base}/api/orders/ord_00000000-0000-4000-8000-000000000000/capture`, {})).status).toBe(404);
    const partial = await post(`${base}/api/orders/${orderId}/capture`, { amount: 1000 });
    expect(await partial.json()).toMatchObject({
      orderId,
      transactionNumber: 'T1',
      status: 6,
      statusName: 'PartiallyCaptured',
      authorization: { capturedCents: 1000, availableCents: 1500 },
    });
    const over = await post(`${base}/api/orders/${orderId}/capture`, { amount: 1501 });
    expect([over.status, await over.json()]).toEqual([409, { code: 'amount_exceeds_available', message: 'Only 1500 cents are still authorized.' }]);
    const rest = await (await post(`${base}/api/orders/${orderId}/capture`, {})).text();
    expect(JSON.parse(rest)).toMatchObject({ status: 7, statusName: 'Captured', lastRefusal: null });
    expect(rest).not.toContain(AUTH_TOKEN);
    const voided = await post(`${base}/api/orders/${orderId}/void`, {});
    expect(await codeOf(voided)).toEqual([409, 'authorization_not_active']);
    const pays = service.calls.filter((call) => call.url.endsWith('/transactions/pay'));
    expect(pays.map((call) => call.body)).toEqual([
      { token: AUTH_TOKEN, amount: 1000 },
      { token: AUTH_TOKEN, amount: 1501 },
      { token: AUTH_TOKEN, amount: 1500 },
    ]);
    expect((pays[0]!.init.headers as Record<string, string>).authorization).toBe('Bearer sk_x');
    await cleanup();
  });

  it("refunds an order with the shop's API key, lists its refunds, and relays the service's refusal as it words it", async () => {
    const { file, cleanup } = await withCredentials();
    const service = fakeService();
    const base = await start(file, service.fetchImpl);
    const { orderId } = (await (await post(`${base}/api/checkout/order`, {})).json()) as { orderId: string };
    expect(await codeOf(await post(`${base}/api/orders/${orderId}/refund`, {})), 'not paid yet').toEqual([409, 'no_transaction']);
    await post(`${base}/api/checkout/commit`, { orderId, transactionNumber: 'T9' });
    expect((await post(`${base}/api/orders/${orderId}/refund`, { reason: 'because' })).status).toBe(400);
    const part = await post(`${base}/api/orders/${orderId}/refund`, { amount: 1000, reason: 'duplicate' });
    expect(await part.json()).toMatchObject({
      status: 13,
      statusName: 'PartiallyRefunded',
      refundedCents: 1000,
      refundableCents: 1500,
      refunds: [{ refundId: 'rf_1', amountCents: 1000, reason: 'duplicate', status: 'succeeded' }],
    });
    const over = await post(`${base}/api/orders/${orderId}/refund`, { amount: 1501 });
    expect([over.status, await over.json()]).toEqual([
      409,
      { code: 'amount_exceeds_refundable', message: 'Only 1500 cents are refundable on this transaction.' },
    ]);
    const rest = await (await post(`${base}/api/orders/${orderId}/refund`, {})).json();
    expect(rest).toMatchObject({ status: 14, refundedCents: 2500, lastRefusal: null });
    const calls = service.calls.filter((call) => call.url.endsWith('/transactions/T9/refund'));
    expect(calls.map((call) => call.body)).toEqual([{ amount: 1000, reason: 'duplicate' }, { amount: 1501 }, {}]);
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe('Bearer sk_x');
    await cleanup();
  });

  it('sends a payment link with its callback and shows only its own outbox messages', async () => {
    const { file, cleanup } = await withCredentials();
    const service = fakeService();
    const base = await start(file, service.fetchImpl);
    expect(await codeOf(await post(`${base}/api/links`, { phone: ' ', email: '' }))).toEqual([400, 'recipient_missing']);
    const sent = (await (await post(`${base}/api/links`, { phone: '+15555550100' })).json()) as {
      order: { orderId: string; statusName: string };
      qrURL: string;
      qrSvgUrl: string;
    };
    expect(sent).toMatchObject({
      order: { statusName: 'Pending' },
      qrURL: 'http://service.test/pay/link_L1',
      qrSvgUrl: 'http://service.test/pay/link_L1/qr.svg',
    });
    expect(service.calls.at(-1)!.body).toEqual({
      amount: 2500,
      isCent: true,
      currency: 'USD',
      products: [{ name: 'Ceramic mug', quantity: 2, amount: 1250 }],
      callbackURL: expect.stringMatching(/\/api\/service-callbacks$/),
      phone: '+15555550100',
    });
    const link = (await (await fetch(`${base}/api/links/${sent.order.orderId}`)).json()) as { messages: { transactionNumber: string }[] };
    expect(link.messages.map((m) => m.transactionNumber)).toEqual(['L1']);
    await cleanup();
  });

  it("sends a sale to its terminal and gives the page the sticker, and the device ID only in the simulator's fragment", async () => {
    const { file, cleanup } = await withCredentials({ stickerUrl: 'http://service.test/s/sticker123' });
    const service = fakeService();
    const base = await start(file, service.fetchImpl);
    const sale = await (await post(`${base}/api/pos`, {})).text();
    expect(JSON.parse(sale)).toMatchObject({ order: { channel: 'pos', statusName: 'Pending' }, stickerUrl: 'http://service.test/s/sticker123' });
    expect(sale).not.toContain('dev_x');
    expect(service.calls.at(-1)!.body).toMatchObject({ deviceId: 'dev_x', amount: 2500, isCent: true });
    expect((service.calls.at(-1)!.init.headers as Record<string, string>).authorization).toBe('Bearer sk_x');
    expect(await (await fetch(`${base}/api/pos/terminal`)).json()).toEqual({
      terminalUrl: 'http://service.test/sandbox/terminal#dev_x',
      stickerUrl: 'http://service.test/s/sticker123',
    });
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
    const forged = await fetch(`${base}/api/service-callbacks`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: body.replace('0', '1'),
    });
    expect(forged.status).toBe(401);
    const list = (await (await fetch(`${base}/api/callbacks`)).json()) as { callbacks: { verified: boolean; transactionNumber: string }[] };
    expect(list.callbacks.map((c) => c.verified)).toEqual([false, true]);
    expect(list.callbacks[1]!.transactionNumber).toBe('T9');
    await fs.rm(dir, { recursive: true });
  });

  it('answers 503 while the back office refuses callbacks, and records each attempt', async () => {
    const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const { file, cleanup } = await withCredentials({ hmacSecret: secret });
    const base = await start(file, fetch);
    const body = JSON.stringify({ TransactionNumber: 'T5', status: 0, statusName: 'Approved' });
    const send = async () =>
      fetch(`${base}/api/service-callbacks`, {
        method: 'POST',
        headers: { ...(await generateTestCallbackHeaders(secret, body)), 'content-type': 'application/json' },
        body,
      });
    const mode = (refusing: unknown) =>
      fetch(`${base}/api/callbacks/mode`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refusing }) });
    expect((await mode('yes')).status).toBe(400);
    expect(await (await mode(true)).json()).toEqual({ refusing: true });
    expect((await send()).status).toBe(503);
    await mode(false);
    expect((await send()).status).toBe(204);
    const list = (await (await fetch(`${base}/api/callbacks?transactionNumber=T5`)).json()) as {
      refusing: boolean;
      callbacks: { answeredStatus: number; verified: boolean }[];
    };
    expect(list).toMatchObject({
      refusing: false,
      callbacks: [
        { answeredStatus: 204, verified: true },
        { answeredStatus: 503, verified: true },
      ],
    });
    await cleanup();
  });

  it('streams order changes to the page as Server-Sent Events', async () => {
    const { file, cleanup } = await withCredentials();
    const base = await start(file, fakeService().fetchImpl);
    const controller = new AbortController();
    const stream = await fetch(`${base}/api/live`, { signal: controller.signal });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const reader = stream.body!.getReader();
    let text = '';
    const { orderId } = (await (await post(`${base}/api/checkout/order`, {})).json()) as { orderId: string };
    await post(`${base}/api/checkout/commit`, { orderId, transactionNumber: 'T3' });
    while (!text.includes('event: order')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: hello');
    const data = JSON.parse(/event: order\ndata: (.*)\n/.exec(text)![1]!) as { orderId: string; transactionNumber: string };
    expect(data).toMatchObject({ orderId, transactionNumber: 'T3' });
    controller.abort();
    await cleanup();
  });
});

describe('the live relay', () => {
  it("opens the service's websocket with the API key, subscribes to the merchant and tracks the shop's orders", async () => {
    const { file, cleanup } = await withCredentials();
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => wss.once('listening', resolve));
    const port = (wss.address() as AddressInfo).port;
    const seen: { authorization: string | undefined; messages: unknown[] } = { authorization: undefined, messages: [] };
    wss.on('connection', (socket, req) => {
      seen.authorization = req.headers.authorization;
      socket.on('message', (data) => {
        seen.messages.push(JSON.parse(data.toString()));
        socket.send(JSON.stringify({ type: 'subscribed', scope: 'merchant', replayed: 0 }));
      });
    });
    const config = loadDemoConfig({ DEMO_CREDENTIALS_FILE: file, SERVICE_URL: `http://127.0.0.1:${port}` });
    const service = fakeService();
    const { app, deps } = createDemo(config, service.fetchImpl);
    const server = http.createServer(app);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { orderId } = (await (await post(`${base}/api/checkout/order`, {})).json()) as { orderId: string };
    await post(`${base}/api/checkout/commit`, { orderId, transactionNumber: 'T4' });
    deps.live.start();
    await vi.waitFor(() => expect(deps.live.state).toBe('connected'));
    expect(seen).toEqual({ authorization: 'Bearer sk_x', messages: [{ type: 'subscribe', scope: 'merchant' }] });
    const update = { ...deps.orders.byTransaction('T4')!.transaction!, status: 0, statusName: 'Approved', sequence: 99 };
    for (const socket of wss.clients) socket.send(JSON.stringify({ type: 'transaction.updated', eventId: 'evt_1', sequence: 99, transaction: update }));
    await vi.waitFor(() => expect(deps.orders.byTransaction('T4')!.transaction!.sequence).toBe(99));
    deps.live.stop();
    wss.close();
    await cleanup();
  });
});
