import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProvisionedMerchant } from '@svc/protocol';
import { loadEnv } from '../env';
import { createLogger } from '../logger';
import { createCallbackDispatcher } from '../modules/callbacks/dispatcher';
import { instrumentedProcessor } from '../processor/instrumented-processor';
import { SandboxProcessor } from '../processor/sandbox-processor';
import { openSocket } from '../realtime/testing';
import { startTestApp, type TestApp } from '../test/app';
import { answer, startReceiver } from '../test/callback-receiver';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { provisionTestMerchant } from '../test/fixtures';
import { consumerPays, merchantClient, TEST_CARD, type MerchantClient } from '../test/merchant-client';
import { metrics, startMetricsServer } from '.';

const logger = createLogger({ level: 'silent' });

/** One sample of a scrape: the value of `name` with exactly these labels (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort();
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const got = (match[2] ?? '').split(',').filter(Boolean).sort();
    if (got.length === wanted.length && got.every((label, i) => label === wanted[i])) return Number(match[3]);
  }
  return 0;
}

describe('GET /metrics on METRICS_PORT', () => {
  let database: TestDatabase;
  let app: TestApp;
  let merchant: ProvisionedMerchant;
  let client: MerchantClient;
  let metricsServer: http.Server;
  let scrapeUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp(database, {
      env: { METRICS_PORT: '0', CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' },
      realtime: true,
      processor: instrumentedProcessor(new SandboxProcessor(), metrics),
    });
    merchant = await provisionTestMerchant(database.db, 'Metrics Shop');
    client = merchantClient(app, merchant);
    metricsServer = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0, logger });
    scrapeUrl = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics`;
  });
  afterAll(async () => {
    metricsServer?.close();
    await app?.close();
    await database?.drop();
  });

  const scrape = async () => {
    const res = await fetch(scrapeUrl);
    expect(res.status).toBe(200);
    return res.text();
  };

  it('moves the named series through a lifecycle, a refusal, a callback retry and a websocket session, with no secret in it', async () => {
    const before = await scrape();
    const receiver = await startReceiver(answer(500));
    const socket = await openSocket(app, { headers: { authorization: `Bearer ${merchant.apiKey}` } });
    const during = await scrape();
    expect(sample(during, 'svc_websocket_connections')).toBe(sample(before, 'svc_websocket_connections') + 1);

    const created = await client.init({ amount: 12.5, currency: 'USD', callbackURL: receiver.url, phone: '+15551234567', email: 'shopper@example.com' });
    expect(created.status).toBe(200);
    const number = created.body.TransactionNumber;
    expect((await consumerPays(app, created.body, TEST_CARD)).status).toBe(200);
    expect((await client.get(number)).status).toBe(200);
    const refund = await app.request(`/transactions/${number}/refund`, {
      method: 'POST',
      headers: { authorization: `Bearer ${merchant.apiKey}` },
      body: { amount: 500 },
    });
    expect(refund.status).toBe(200);
    const refused = await app.request(`/transactions/${number}`, { headers: { authorization: 'Bearer sk_test_not_a_key' } });
    expect(refused.status).toBe(401);
    expect((await app.request('/no/such/path')).status).toBe(404);

    // The merchant's endpoint fails once, then accepts: one retry, one success.
    const env = loadEnv({ CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', CALLBACK_TIMEOUT_MS: '2000' });
    const dispatcher = createCallbackDispatcher({ db: database.db, clock: app.clock, logger, env });
    await dispatcher.runOnce();
    receiver.behave(answer(200));
    await database.sql`update callback_deliveries set next_attempt_at = now() - interval '1 hour' where state = 'pending'`;
    while ((await dispatcher.runOnce()) > 0)
      await database.sql`update callback_deliveries set next_attempt_at = now() - interval '1 hour' where state = 'pending'`;
    await socket.close();
    await receiver.close();

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('svc_http_requests_total', { method: 'POST', route: '/transactions/init', status: '200' })).toBe(1);
    expect(delta('svc_http_requests_total', { method: 'POST', route: '/pay/{linkId}', status: '200' })).toBe(1);
    expect(delta('svc_http_requests_total', { method: 'GET', route: '/transactions/{transactionNumber}', status: '200' })).toBe(1);
    expect(delta('svc_http_requests_total', { method: 'GET', route: '/transactions/{transactionNumber}', status: '401' })).toBe(1);
    expect(delta('svc_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(delta('svc_http_request_duration_seconds_count', { method: 'POST', route: '/transactions/init', status: '200' })).toBe(1);
    expect(delta('svc_processor_calls_total', { operation: 'sale', outcome: 'approved' })).toBe(1);
    expect(delta('svc_callback_deliveries_total', { outcome: 'retrying' })).toBeGreaterThanOrEqual(1);
    expect(delta('svc_callback_deliveries_total', { outcome: 'succeeded' })).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'svc_websocket_connections')).toBe(sample(before, 'svc_websocket_connections'));
    expect(delta('svc_refunds_total', { outcome: 'succeeded' })).toBe(1);
    expect(after).toContain('process_cpu_user_seconds_total');
    expect(after).toContain('nodejs_eventloop_lag_seconds');

    // Every route label is a pattern, and nothing secret or personal appears anywhere in the text.
    const routes = new Set([...after.matchAll(/route="([^"]*)"/g)].map((m) => m[1]!));
    for (const route of routes) expect(route === 'unmatched' || route === 'other' || /^\/[\w/{}.-]*$/.test(route), route).toBe(true);
    const linkId = created.body.transactionPage.qrURL.split('/pay/')[1]!;
    for (const secret of [
      number,
      linkId,
      merchant.apiKey,
      merchant.hmacSecret,
      merchant.clientId,
      merchant.deviceId,
      '15551234567',
      'shopper@example.com',
      '4242424242424242',
    ]) {
      expect(after).not.toContain(secret);
    }
  });

  it('is not served on the public port', async () => {
    expect((await app.request('/metrics')).status).toBe(404);
  });
});
