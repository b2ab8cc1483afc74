import type { ProvisionedMerchant, Transaction } from '@svc/protocol';
import { Status, verifyCallback } from '@svc/protocol';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock';
import { loadEnv } from '../../env';
import { createLogger } from '../../logger';
import { startTestApp, type TestApp } from '../../test/app';
import { answer, startCanary, startReceiver } from '../../test/callback-receiver';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { provisionTestMerchant } from '../../test/fixtures';
import { consumerPays, merchantClient, TEST_CARD, type MerchantClient } from '../../test/merchant-client';
import { guardLookup } from './address-guard';
import { createCallbackDispatcher, type DispatcherDeps } from './dispatcher';

let database: TestDatabase;
let app: TestApp;
let merchant: ProvisionedMerchant;
let client: MerchantClient;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database, { env: { CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_PER_S: '100000', RATE_LIMIT_BURST: '100000' } });
  merchant = await provisionTestMerchant(database.db, 'Callback Shop');
  client = merchantClient(app, merchant);
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
  // Each test starts with an empty outbox.
  await database.sql`update callback_deliveries set state = 'failed', next_attempt_at = null where state = 'pending'`;
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

function dispatcher(overrides: Partial<Omit<DispatcherDeps, 'env'>> & { env?: Record<string, string> } = {}) {
  const { env: envOverrides, ...rest } = overrides;
  const env = loadEnv({ CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', CALLBACK_TIMEOUT_MS: '1000', ...envOverrides });
  return createCallbackDispatcher({ db: database.db, clock: app.clock, logger: createLogger({ level: 'silent' }), ...rest, env });
}

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  cleanups.push(r.close);
  return r;
}

/** A pending sale with a callback URL, then cancelled: one update, one delivery. */
async function oneUpdate(callbackURL: string, callbackMethod?: 'GET' | 'POST') {
  const created = await client.init({ amount: 5, currency: 'USD', callbackURL, ...(callbackMethod ? { callbackMethod } : {}) });
  expect(created.status).toBe(200);
  await client.cancel(created.body.TransactionNumber);
  return created.body.TransactionNumber;
}

async function deliveryLog(transactionNumber: string) {
  const res = await client.call<{
    deliveries: {
      deliveryId: string;
      eventId: string;
      state: string;
      sequence: number;
      nextAttemptAt: string | null;
      attempts: { at: string; httpStatus: number | null; error: string | null }[];
    }[];
  }>('GET', `/transactions/${transactionNumber}/callbacks`);
  expect(res.status).toBe(200);
  return res.body.deliveries;
}

describe('callback delivery', () => {
  it('POSTs the transaction object of each update, signed both ways, and logs the attempt', async () => {
    const merchantEnd = await receiver();
    const created = await client.init({ amount: 30, currency: 'USD', methodType: 'authorize', callbackURL: `${merchantEnd.url}/hooks/pay?shop=7` });
    const d = dispatcher();
    expect(await d.runOnce()).toBe(0); // creation is the merchant's own call: no callback
    await consumerPays(app, created.body, TEST_CARD);
    expect(await d.runOnce()).toBe(1);

    expect(merchantEnd.received).toHaveLength(1);
    const hit = merchantEnd.received[0]!;
    expect(hit.method).toBe('POST');
    expect(hit.url).toBe('/hooks/pay?shop=7');
    expect(hit.headers['content-type']).toBe('application/json');
    const body = JSON.parse(hit.body) as Transaction;
    expect(body).toMatchObject({ TransactionNumber: created.body.TransactionNumber, status: Status.Authorized, sequence: 2 });
    expect(body.paymentDetails!.token).toMatch(/^auth_/);

    const header = (name: string) => hit.headers[name] as string | undefined;
    expect(header('hmac-random-key')).toMatch(/^[0-9a-f]{32}$/);
    expect(await verifyCallback(merchant.hmacSecret, header, hit.body)).toBe(true);
    expect(await verifyCallback('whsec_AAAA', header, hit.body)).toBe(false);
    const standard = new Webhook(merchant.hmacSecret).verify(hit.body, {
      'webhook-id': header('webhook-id')!,
      'webhook-timestamp': header('webhook-timestamp')!,
      'webhook-signature': header('webhook-signature')!,
    });
    expect(standard).toEqual(body);

    const [delivery] = await deliveryLog(created.body.TransactionNumber);
    expect(delivery).toMatchObject({ state: 'succeeded', sequence: 2, nextAttemptAt: null, eventId: header('webhook-id') });
    expect(delivery!.attempts).toMatchObject([{ httpStatus: 200, error: null }]);
  });

  it('GET callbacks carry TransactionNumber and callbackType, no body, and a signature over the empty body', async () => {
    const merchantEnd = await receiver();
    const number = await oneUpdate(`${merchantEnd.url}/status?keep=1`, 'GET');
    await dispatcher().runOnce();
    const hit = merchantEnd.received[0]!;
    expect(hit.method).toBe('GET');
    const url = new URL(hit.url, merchantEnd.url);
    expect(Object.fromEntries(url.searchParams)).toEqual({ keep: '1', TransactionNumber: number, callbackType: 'transaction_status' });
    expect(hit.body).toBe('');
    expect(await verifyCallback(merchant.hmacSecret, (n) => hit.headers[n] as string | undefined, '')).toBe(true);
  });

  it('under a fake clock, attempts fire at the scheduled offsets and a failing endpoint ends failed', async () => {
    const merchantEnd = await receiver(answer(500));
    const number = await oneUpdate(`${merchantEnd.url}/fail`);
    const clock = new ManualClock(new Date(Date.now() + 1000));
    const d = dispatcher({ clock });
    const first = clock.now().getTime();
    const offsets: number[] = [];
    for (let i = 0; i < 20; i++) {
      if ((await d.runOnce()) === 1) offsets.push((clock.now().getTime() - first) / 1000);
      const [delivery] = await deliveryLog(number);
      if (delivery!.state !== 'pending') break;
      const due = Date.parse(delivery!.nextAttemptAt!);
      clock.advance((due - clock.now().getTime()) / 1000 - 1);
      expect(await d.runOnce()).toBe(0); // not a second early
      clock.advance(1);
    }
    const expected = [0, 15, 75, 195, 795, 2795, 34795];
    expect(offsets).toEqual(expected);
    const [delivery] = await deliveryLog(number);
    expect(delivery!.state).toBe('failed');
    expect(delivery!.attempts).toHaveLength(7);
    const recorded = delivery!.attempts.map((a) => (Date.parse(a.at) - Date.parse(delivery!.attempts[0]!.at)) / 1000);
    const skew = recorded.map((s, i) => s - expected[i]!);
    console.info(`callback schedule skew (recorded − scheduled, s): ${skew.join(', ')}`);
    expect(Math.max(...skew.map(Math.abs))).toBeLessThan(1);
    expect(merchantEnd.received).toHaveLength(7);
    expect(new Set(merchantEnd.received.map((r) => r.headers['webhook-id'])).size).toBe(1); // the same event every time
    expect(new Set(merchantEnd.received.map((r) => r.headers['hmac-random-key'])).size).toBe(7); // a new random key each attempt
  });

  it('follows the sandbox clock: a retry is due once the test clock has moved', async () => {
    const merchantEnd = await receiver(answer(503));
    const number = await oneUpdate(`${merchantEnd.url}/later`);
    const d = dispatcher();
    expect(await d.runOnce()).toBe(1);
    merchantEnd.behave(answer(200));
    expect(await d.runOnce()).toBe(0);
    await client.advanceClock(15);
    expect(await d.runOnce()).toBe(1);
    expect((await deliveryLog(number))[0]!.state).toBe('succeeded');
  });
});

describe('misbehaving endpoints fail cleanly and are retried on schedule', () => {
  it.each([
    ['hangs', () => () => undefined, /no answer within/],
    ['resets the connection', () => (req: import('node:http').IncomingMessage) => req.socket.destroy(), /ECONNRESET|socket hang up/],
    ['answers 500', () => answer(500), /HTTP 500/],
    [
      'answers gigabytes',
      () => (_req: unknown, res: import('node:http').ServerResponse) => {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (res.write(chunk)) if (res.destroyed) return;
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      },
      /larger than 64 KB/,
    ],
  ] as const)('an endpoint that %s', async (_name, makeBehaviour, error) => {
    const merchantEnd = await receiver(makeBehaviour() as never);
    const number = await oneUpdate(`${merchantEnd.url}/x`);
    const started = Date.now();
    expect(await dispatcher().runOnce()).toBe(1);
    expect(Date.now() - started).toBeLessThan(5000);
    const [delivery] = await deliveryLog(number);
    expect(delivery!.state).toBe('pending');
    expect(delivery!.attempts[0]!.error).toMatch(error);
    expect(Date.parse(delivery!.nextAttemptAt!) - Date.parse(delivery!.attempts[0]!.at)).toBeGreaterThanOrEqual(15_000);
  });

  it('a redirect is a failure and is not followed', async () => {
    const canary = await startCanary('127.0.0.1');
    cleanups.push(canary.close);
    const merchantEnd = await receiver((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${canary.port}/` }).end());
    const number = await oneUpdate(`${merchantEnd.url}/moved`);
    await dispatcher().runOnce();
    expect((await deliveryLog(number))[0]!.attempts[0]).toMatchObject({ httpStatus: 302, error: 'HTTP 302' });
    expect(canary.connections).toBe(0);
  });

  it('410 stops every further attempt; redeliver starts it again', async () => {
    const merchantEnd = await receiver(answer(410));
    const number = await oneUpdate(`${merchantEnd.url}/gone`);
    const d = dispatcher();
    await d.runOnce();
    const [gone] = await deliveryLog(number);
    // `status`, as in every answer; `state` is its former name, kept as an alias.
    expect(gone).toMatchObject({ status: 'failed', state: 'failed', nextAttemptAt: null });

    const stranger = merchantClient(app, await provisionTestMerchant(database.db));
    expect((await stranger.call('POST', `/callbacks/${gone!.deliveryId}/redeliver`)).status).toBe(404);
    merchantEnd.behave(answer(200));
    const again = await client.call<{ status: string; state: string }>('POST', `/callbacks/${gone!.deliveryId}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ status: 'pending', state: 'pending' });
    expect(await d.runOnce()).toBe(1);
    const [done] = await deliveryLog(number);
    expect(done).toMatchObject({ status: 'succeeded', state: 'succeeded' });
    expect(done!.attempts.map((a) => a.httpStatus)).toEqual([410, 200]);
  });
});

describe('the SSRF guard (private networks not allowed)', () => {
  it('refuses literal loopback, private and metadata callback URLs at init', async () => {
    const strict = await startTestApp(database);
    cleanups.push(strict.close);
    const strictClient = merchantClient(strict, merchant);
    for (const url of [
      'http://127.0.0.1/cb',
      'http://localhost/cb',
      'http://[::1]/cb',
      'http://[::ffff:127.0.0.1]/cb',
      'http://2130706433/cb',
      'http://0.0.0.0/cb',
      'http://169.254.169.254/cb',
      'http://10.0.0.1/cb',
      'http://192.168.1.1/cb',
      'http://[fd00::1]/cb',
    ]) {
      const res = await strictClient.init({ amount: 1, currency: 'USD', callbackURL: url });
      expect(res.status, url).toBe(400);
      expect((res.body as unknown as { code: string }).code).toBe('callback_url_not_allowed');
    }
    expect((await strictClient.init({ amount: 1, currency: 'USD', callbackURL: 'https://shop.example.com/cb' })).status).toBe(200);
  });

  it('makes no connection to loopback in any form, by literal or by a name that resolves there', async () => {
    const v4 = await startCanary('127.0.0.1');
    const v6 = await startCanary('::1');
    cleanups.push(v4.close, v6.close);
    // Names that resolve to loopback: the guard sees the resolved addresses.
    const names: Record<string, { address: string; family: number }[]> = {
      'loopback.test': [{ address: '127.0.0.1', family: 4 }],
      'six.test': [{ address: '::1', family: 6 }],
      'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
      'mixed.test': [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    };
    const lookup = guardLookup((hostname, _options, callback) => {
      const found = names[hostname];
      if (found) callback(null, found);
      else callback(Object.assign(new Error(`unknown test name ${hostname}`), { code: 'ENOTFOUND' }), []);
    });
    const urls = [
      `http://127.0.0.1:${v4.port}/`,
      `http://localhost:${v4.port}/`,
      `http://127.1:${v4.port}/`,
      `http://2130706433:${v4.port}/`,
      `http://0x7f.0.0.1:${v4.port}/`,
      `http://017700000001:${v4.port}/`,
      `http://0.0.0.0:${v4.port}/`,
      `http://[::1]:${v6.port}/`,
      `http://[::ffff:127.0.0.1]:${v4.port}/`,
      `http://loopback.test:${v4.port}/`,
      `http://six.test:${v6.port}/`,
      `http://mapped.test:${v4.port}/`,
      `http://mixed.test:${v4.port}/`,
    ];
    const numbers: string[] = [];
    for (const url of urls) numbers.push(await oneUpdate(url)); // accepted at init: this app allows private networks
    const strict = dispatcher({ env: { CALLBACK_ALLOW_PRIVATE_NETWORKS: 'false' }, lookup });
    expect(await strict.runOnce()).toBe(urls.length);
    for (const number of numbers) {
      const [delivery] = await deliveryLog(number);
      expect(delivery!.attempts[0]!.error, delivery!.attempts[0]!.error ?? '').toMatch(/^address not allowed/);
    }
    expect(v4.connections).toBe(0);
    expect(v6.connections).toBe(0);
  });
});

describe('the dispatcher loop', () => {
  it('does not lose a wake-up that arrives while it is sending', async () => {
    const merchantEnd = await receiver(answer(200, 400));
    const d = dispatcher({ idleMs: 30_000 });
    d.start();
    try {
      await oneUpdate(`${merchantEnd.url}/first`);
      d.wake();
      await expect.poll(() => merchantEnd.received.length, { timeout: 5_000, interval: 20 }).toBe(1); // the first is in flight
      await oneUpdate(`${merchantEnd.url}/second`);
      d.wake(); // while the first is still being answered
      const woke = Date.now();
      await expect.poll(() => merchantEnd.received.length, { timeout: 5_000, interval: 20 }).toBe(2);
      expect(Date.now() - woke).toBeLessThan(5_000); // not the 30 s idle poll
    } finally {
      await d.stop();
    }
  });

  it('sends a delivery queued while a slow endpoint is still answering without waiting for it', async () => {
    const slowEnd = await receiver(answer(200, 3_000));
    const fastEnd = await receiver(answer(200));
    const d = dispatcher({ idleMs: 30_000, env: { CALLBACK_TIMEOUT_MS: '5000' } });
    d.start();
    try {
      await oneUpdate(`${slowEnd.url}/slow`);
      d.wake();
      await expect.poll(() => slowEnd.received.length, { timeout: 5_000, interval: 20 }).toBe(1); // in flight for 3 s
      await oneUpdate(`${fastEnd.url}/fast`);
      d.wake();
      await expect.poll(() => fastEnd.received.length, { timeout: 2_000, interval: 20 }).toBe(1);
      // Sent while the slow answer was still pending: it did not wait for the batch to finish.
      expect(fastEnd.received[0]!.at - slowEnd.received[0]!.at).toBeLessThan(2_500);
    } finally {
      await d.stop();
    }
  });
});

describe('two dispatchers on one database', () => {
  it('send every attempt once, not twice', async () => {
    const merchantEnd = await receiver(answer(200, 5));
    const numbers = await Promise.all(Array.from({ length: 120 }, () => oneUpdate(`${merchantEnd.url}/twice`)));
    const a = dispatcher({ batchSize: 8, idleMs: 20 });
    const b = dispatcher({ batchSize: 8, idleMs: 20 });
    a.start();
    b.start();
    try {
      await expect.poll(() => merchantEnd.received.length, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(numbers.length);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const ids = merchantEnd.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(numbers.length);
    expect(new Set(ids).size).toBe(numbers.length);
  });
});
