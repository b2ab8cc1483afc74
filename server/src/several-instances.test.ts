import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Status, type ProvisionedMerchant } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './db/embedded';
import { isSubscribed, openSocket, type TestSocket } from './realtime/testing';
import { buildServer, type BuiltServer } from './test/built-server';
import { answer, startReceiver } from './test/callback-receiver';
import { createTestDatabase, type TestDatabase } from './test/database';
import { provisionTestMerchant } from './test/fixtures';
import { consumerPays, merchantClient, type MerchantClient } from './test/merchant-client';
import { finished, spawnNode, waitForHealthy } from './test/process';
import { NATS_SERVER_BINARY, NATS_SKIP_LINE, startNatsServer, type NatsServer } from './test/nats-server';

/**
 * Three instances of the built server on one database, as an operator scales out (docs/operating.md#running-several-instances):
 * lifecycles run through them in rotation (created on one, paid on another, captured on the third), with a merchant
 * socket on one and a payment page's socket on another, one instance killed (SIGKILL) and started again midway, and
 * the test clock moved so that every instance's sweeps find the same time-out and hold expiry. Every callback attempt
 * reaches the merchant once, every update reaches every subscriber in order whichever instance made it, each expiry is
 * applied once, and every processor request is finished once, by the instance that asked. It runs on each update bus
 * (REALTIME_BUS), with the bus lost and back midway while changes are made: for `nats` the test's own NATS server is
 * killed and started again on its port; for `postgres` every instance's LISTEN connection is terminated.
 */
const PUBLIC_BASE_URL = 'http://localhost:8080';
const HOLD_S = 7 * 24 * 3600;

interface Instance {
  name: string;
  base: string;
  wsUrl: string;
  client: MerchantClient;
  app: { request(path: string, init?: { method?: string; headers?: Record<string, string>; body?: unknown }): Promise<Response> };
  child: ReturnType<typeof spawnNode>;
}

let database: TestDatabase;
let merchant: ProvisionedMerchant;
let built: BuiltServer;
let dataDir: string;
const children: ReturnType<typeof spawnNode>[] = [];

beforeAll(async () => {
  [database, built, dataDir] = await Promise.all([
    createTestDatabase(),
    buildServer('several-instances'),
    fs.mkdtemp(path.join(os.tmpdir(), 'svc-instances-')),
  ]);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(children.map((child) => finished(child).catch(() => undefined)));
  await database?.drop();
  await built?.remove();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** The bus the instances share: what they are started with, and how the test takes it away and brings it back. */
interface BusUnderTest {
  env: Record<string, string>;
  /** Takes the bus away (no instance hears it), runs `meanwhile`, brings the bus back. */
  outage(meanwhile: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

const postgresBus = (): BusUnderTest => ({
  env: { REALTIME_BUS: 'postgres' },
  async outage(meanwhile) {
    // Every instance's LISTEN connection (the only connections whose last statement is a LISTEN) ends at once.
    const terminated = await database.sql<{ pid: number }[]>`
      select pid from pg_stat_activity
      where datname = ${database.name} and query ilike 'listen %' and pid <> pg_backend_pid() and pg_terminate_backend(pid)`;
    expect(terminated.length).toBeGreaterThanOrEqual(3);
    await meanwhile();
  },
  stop: async () => undefined,
});

const natsBus = async (): Promise<BusUnderTest> => {
  const server: NatsServer = await startNatsServer();
  return {
    env: { REALTIME_BUS: 'nats', NATS_URL: server.url },
    async outage(meanwhile) {
      await server.kill();
      await meanwhile();
      await server.restart();
    },
    stop: () => server.stop(),
  };
};

async function startInstance(name: string, port: number, bus: BusUnderTest): Promise<Instance> {
  const child = spawnNode(
    [built.main],
    {
      DATABASE_URL: database.url,
      DATABASE_POOL_MAX: '4',
      DATA_DIR: dataDir,
      PORT: String(port),
      // One public origin for all three, as behind a load balancer (a payment page's socket checks its Origin).
      PUBLIC_BASE_URL,
      LOG_LEVEL: 'warn',
      CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true',
      CALLBACK_TIMEOUT_MS: '2000',
      CALLBACK_RETRY_SCHEDULE_S: '1',
      RATE_LIMIT_PER_S: '100000',
      RATE_LIMIT_BURST: '100000',
      SHUTDOWN_GRACE_MS: '3000',
      ...bus.env,
    },
    { tsx: false },
  );
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  await waitForHealthy(`${base}/healthz`, child);
  const app: Instance['app'] = {
    request: (requestPath, init = {}) => {
      const headers: Record<string, string> = { ...init.headers };
      if (init.body !== undefined) headers['content-type'] ??= 'application/json';
      const body = init.body === undefined ? undefined : JSON.stringify(init.body);
      return fetch(`${base}${requestPath}`, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
    },
  };
  return { name, base, wsUrl: `ws://127.0.0.1:${port}/ws`, client: merchantClient(app, merchant), app, child };
}

const ok = <T extends { status: number; body: unknown }>(answered: T): T => {
  if (answered.status !== 200) throw new Error(`expected 200, got ${answered.status}: ${JSON.stringify(answered.body)}`);
  return answered;
};

if (!NATS_SERVER_BINARY) console.info(`several-instances.test.ts on the nats bus ${NATS_SKIP_LINE}`);

describe.each([
  { busName: 'postgres', skip: false, open: () => Promise.resolve(postgresBus()) },
  { busName: 'nats', skip: !NATS_SERVER_BINARY, open: natsBus },
])('three instances on one database, on the $busName bus', ({ busName, skip, open }) => {
  it.skipIf(skip)(
    'share lifecycles, callbacks, subscriptions and sweeps, with one killed and restarted and the bus lost midway',
    { timeout: 120_000 },
    async () => {
      // A merchant of each run's own, so that each run counts only its own callbacks and processor requests.
      merchant = await provisionTestMerchant(database.db, `Scaled Shop (${busName})`);
      const receiver = await startReceiver(answer(200));
      const sockets: TestSocket[] = [];
      const bus = await open();
      try {
        const ports = await Promise.all([freePort(), freePort(), freePort()]);
        // Started together: migrations and the sandbox's bootstrap are shared work.
        const [a, firstB, c] = await Promise.all([startInstance('A', ports[0]!, bus), startInstance('B', ports[1]!, bus), startInstance('C', ports[2]!, bus)]);
        let b = firstB;
        const callbackURL = `${receiver.url}/callbacks`;

        // The merchant's backend follows every transaction on A.
        const merchantSocket = await openSocket({ wsUrl: a.wsUrl }, { headers: { authorization: `Bearer ${merchant.apiKey}` } });
        sockets.push(merchantSocket);
        merchantSocket.send({ type: 'subscribe', scope: 'merchant' });
        await merchantSocket.next(isSubscribed);

        // Round 1, in rotation. A sale link created on A, its page's socket on C, paid on B.
        const sale = ok(await a.client.init({ amount: 10, currency: 'USD', callbackURL })).body;
        const linkId = sale.transactionPage.qrURL.split('/pay/')[1]!;
        const pageSocket = await openSocket({ wsUrl: c.wsUrl }, { query: { link: linkId }, origin: PUBLIC_BASE_URL });
        sockets.push(pageSocket);
        pageSocket.send({ type: 'subscribe', transactionNumber: sale.TransactionNumber, afterSequence: 0 });
        await pageSocket.next(isSubscribed);
        ok(await consumerPays(b.app, sale));

        // An authorization created on B, paid on C, captured on A.
        const captured = ok(await b.client.init({ amount: 20, currency: 'USD', methodType: 'authorize', callbackURL })).body;
        ok(await consumerPays(c.app, captured));
        const capturedToken = ok(await a.client.get(captured.TransactionNumber)).body.paymentDetails!.token!;
        ok(await a.client.pay({ token: capturedToken, amount: 2000 })); // cents: the whole hold

        // An authorization created on C, paid on A, voided on B.
        const voided = ok(await c.client.init({ amount: 30, currency: 'USD', methodType: 'authorize', callbackURL })).body;
        ok(await consumerPays(a.app, voided));
        ok(await b.client.void({ transactionNumber: voided.TransactionNumber }));

        // Left for the sweeps: a link that times out, and a hold that expires.
        const timingOut = ok(await a.client.init({ amount: 40, currency: 'USD', timeOut: 60, callbackURL })).body;
        const held = ok(await b.client.init({ amount: 50, currency: 'USD', methodType: 'authorize', callbackURL })).body;
        ok(await consumerPays(c.app, held));

        // A link cancelled on another instance than the one that made it.
        const cancelled = ok(await c.client.init({ amount: 60, currency: 'USD', callbackURL })).body;
        ok(await a.client.cancel(cancelled.TransactionNumber));

        // B dies at once, its callbacks perhaps mid-flight, and comes back on the same port.
        b.child.kill('SIGKILL');
        await finished(b.child);
        b = await startInstance('B', ports[1]!, bus);

        // The bus goes away while a sale is made and paid and a capture is made, and comes back.
        let lostSale = sale;
        await bus.outage(async () => {
          lostSale = ok(await c.client.init({ amount: 65, currency: 'USD', callbackURL })).body;
          ok(await consumerPays(a.app, lostSale));
        });

        // Round 2 through the restarted B.
        const sale2 = ok(await b.client.init({ amount: 70, currency: 'USD', callbackURL })).body;
        ok(await consumerPays(b.app, sale2));
        const captured2 = ok(await a.client.init({ amount: 80, currency: 'USD', methodType: 'authorize', callbackURL })).body;
        ok(await consumerPays(b.app, captured2));
        const token2 = ok(await c.client.get(captured2.TransactionNumber)).body.paymentDetails!.token!;
        ok(await c.client.pay({ token: token2, amount: 8000 }));

        // The shared test clock moved past the time-out and the hold on C: C sweeps before it answers, and A's and B's
        // expiry workers, following the clock, find the same rows due.
        ok(await c.client.advanceClock(HOLD_S + 60));

        const all = [sale, captured, voided, timingOut, held, cancelled, lostSale, sale2, captured2].map((t) => t.TransactionNumber);
        const eventsOf = async () => {
          const rows = await database.sql<{ transaction_number: string; sequence: number; status: number; callback: boolean; id: string }[]>`
          select t.transaction_number, e.sequence, (e.payload::jsonb ->> 'status')::int as status, e.id,
                 exists (select 1 from callback_deliveries d where d.event_id = e.id) as callback
          from transaction_events e join transactions t on t.id = e.transaction_id
          where t.merchant_id = ${merchant.merchantId} order by t.transaction_number, e.sequence`;
          return rows;
        };
        const statusOf = async (transactionNumber: string) => (await a.client.get(transactionNumber)).body.status;
        await expect.poll(() => statusOf(timingOut.TransactionNumber), { timeout: 20_000 }).toBe(Status.TimedOut);
        await expect.poll(() => statusOf(held.TransactionNumber), { timeout: 20_000 }).toBe(Status.Expired);

        // Every callback delivered (a retry after the kill included).
        const deliveries = async () =>
          database.sql<{ event_id: string; state: string; attempt_count: number }[]>`
          select d.event_id, d.state, d.attempt_count from callback_deliveries d where d.merchant_id = ${merchant.merchantId}`;
        await expect.poll(async () => (await deliveries()).filter((d) => d.state !== 'succeeded').length, { timeout: 30_000 }).toBe(0);

        const events = await eventsOf();
        const sequencesOf = (transactionNumber: string) => events.filter((e) => e.transaction_number === transactionNumber).map((e) => e.sequence);
        // Each transaction's events: 1, 2, … with no gap and no repeat; each expiry applied once.
        for (const number of all) expect(sequencesOf(number)).toEqual(sequencesOf(number).map((_, i) => i + 1));
        expect(events.filter((e) => e.transaction_number === timingOut.TransactionNumber).map((e) => e.status)).toEqual([Status.Pending, Status.TimedOut]);
        expect(events.filter((e) => e.transaction_number === held.TransactionNumber).map((e) => e.status)).toEqual([
          Status.Pending,
          Status.Authorized,
          Status.Expired,
        ]);

        // Callbacks: every update's reached the merchant; no attempt was sent twice (a webhook-id arrives at most once per
        // attempt its delivery records; more than once only when the kill cut an attempt short and it was sent again).
        const received = new Map<string, number>();
        for (const r of receiver.received) received.set(String(r.headers['webhook-id']), (received.get(String(r.headers['webhook-id'])) ?? 0) + 1);
        const withCallback = events.filter((e) => e.callback);
        expect(withCallback.length).toBe((await deliveries()).length);
        for (const delivery of await deliveries()) {
          const times = received.get(delivery.event_id) ?? 0;
          expect(times, `callback ${delivery.event_id}`).toBeGreaterThanOrEqual(1);
          expect(times, `callback ${delivery.event_id}`).toBeLessThanOrEqual(delivery.attempt_count);
        }
        expect([...received.keys()].sort()).toEqual(withCallback.map((e) => e.id).sort());

        // The merchant's socket on A saw every update of every transaction, in order, wherever it was made.
        await expect.poll(() => all.map((number) => merchantSocket.updates(number).map((u) => u.sequence)), { timeout: 10_000 }).toEqual(all.map(sequencesOf));
        // The payment page's socket on C saw its link's updates (created on A, paid on B), in order.
        await expect
          .poll(() => pageSocket.updates(sale.TransactionNumber).map((u) => u.sequence), { timeout: 10_000 })
          .toEqual(sequencesOf(sale.TransactionNumber));
        expect(pageSocket.updates(sale.TransactionNumber).at(-1)!.transaction.status).toBe(Status.Approved);

        // Every processor request finished, once, by the instance that asked (none left to the worker, none repeated).
        const requests = await database.sql<{ operation: string; state: string; attempts: number; transaction_number: string }[]>`
        select r.operation, r.state, r.attempts, t.transaction_number from processor_requests r join transactions t on t.id = r.transaction_id
        where t.merchant_id = ${merchant.merchantId}`;
        expect(requests.length).toBeGreaterThanOrEqual(8);
        for (const request of requests) expect(request, request.operation).toMatchObject({ state: 'done', attempts: 1 });
        // One release each for the void and the expired hold (the captures took their whole holds): none twice.
        expect(
          requests
            .filter((r) => r.operation === 'release')
            .map((r) => r.transaction_number)
            .sort(),
        ).toEqual([voided.TransactionNumber, held.TransactionNumber].sort());
        // Nothing was left in the realtime outbox: each update published once its change committed, or by the sweep.
        await expect.poll(async () => (await database.sql`select 1 from event_publications`).length, { timeout: 10_000 }).toBe(0);
      } finally {
        for (const socket of sockets) await socket.close();
        await receiver.close();
        for (const child of children.splice(0)) {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await finished(child).catch(() => undefined);
        }
        await bus.stop();
      }
    },
  );
});
