import { WS_CLOSE_CODES, WS_MAX_MESSAGE_BYTES, type ProvisionedMerchant } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../test/app';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { provisionTestMerchant } from '../test/fixtures';
import { authorizedHold, merchantClient } from '../test/merchant-client';
import { isError, isSubscribed, isUpdate, openSocket, startRealtimeApp, type RealtimeTestApp, type TestSocket } from './testing';
import { EVENTS_CHANNEL } from '../event-notice';

let database: TestDatabase;
let app: RealtimeTestApp;
let merchant: ProvisionedMerchant;
const sockets: TestSocket[] = [];
const apps: RealtimeTestApp[] = [];

async function startApp(options: Parameters<typeof startRealtimeApp>[1] = {}) {
  const started = await startRealtimeApp(database, options);
  apps.push(started);
  return started;
}

async function merchantSocket(on: RealtimeTestApp = app, options: { autoPong?: boolean } = {}): Promise<TestSocket> {
  const socket = await openSocket(on, { headers: bearer(merchant.apiKey), ...options });
  sockets.push(socket);
  return socket;
}

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startApp({ realtime: { maxSubscriptions: 3 } });
  merchant = await provisionTestMerchant(database.db);
});

afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.close()));
  await Promise.all(apps.map((started) => started.close()));
  await database?.drop();
});

describe('client messages', () => {
  it('answers ping with pong', async () => {
    const socket = await merchantSocket();
    socket.send({ type: 'ping' });
    expect(await socket.next((m) => m.type === 'pong')).toEqual({ type: 'pong' });
  });

  it.each([
    ['text that is not JSON', 'hello', WS_CLOSE_CODES.POLICY_VIOLATION],
    ['an unknown message type', JSON.stringify({ type: 'launch' }), WS_CLOSE_CODES.POLICY_VIOLATION],
    [
      'a subscribe with both a transaction and a scope',
      JSON.stringify({ type: 'subscribe', transactionNumber: 'A', scope: 'merchant' }),
      WS_CLOSE_CODES.POLICY_VIOLATION,
    ],
    ['a negative afterSequence', JSON.stringify({ type: 'subscribe', transactionNumber: 'A', afterSequence: -1 }), WS_CLOSE_CODES.POLICY_VIOLATION],
    ['a binary frame', Buffer.from([1, 2, 3]), WS_CLOSE_CODES.UNSUPPORTED_DATA],
  ])('%s: an error frame, then the connection is closed; the server serves the next one', async (_name, frame, code) => {
    const socket = await merchantSocket();
    socket.ws.send(frame);
    expect(await socket.next(isError)).toMatchObject({ code: 'malformed_message' });
    expect((await socket.closed).code).toBe(code);

    const next = await merchantSocket();
    next.send({ type: 'ping' });
    await next.next((m) => m.type === 'pong');
  });

  it(`closes with 1009 on a frame over ${WS_MAX_MESSAGE_BYTES} bytes`, async () => {
    const socket = await merchantSocket();
    socket.send({ type: 'ping', padding: 'x'.repeat(WS_MAX_MESSAGE_BYTES) });
    expect((await socket.closed).code).toBe(WS_CLOSE_CODES.MESSAGE_TOO_BIG);
  });

  it('limits subscriptions per connection', async () => {
    const socket = await merchantSocket();
    socket.send({ type: 'subscribe', scope: 'merchant' });
    socket.send({ type: 'subscribe', transactionNumber: 'AAAA' });
    socket.send({ type: 'subscribe', transactionNumber: 'BBBB' });
    // not_found subscriptions do not count; make two that stick.
    const client = merchantClient(app, merchant);
    const a = await client.init({ amount: 100, isCent: true, currency: 'USD' });
    const b = await client.init({ amount: 100, isCent: true, currency: 'USD' });
    const c = await client.init({ amount: 100, isCent: true, currency: 'USD' });
    for (const created of [a, b, c]) socket.send({ type: 'subscribe', transactionNumber: created.body.TransactionNumber });
    const refused = await socket.next((m) => isError(m) && m.code === 'too_many_subscriptions');
    expect(refused).toMatchObject({ transactionNumber: c.body.TransactionNumber });
    expect(socket.messages.filter(isSubscribed)).toHaveLength(3);
    // Subscribing again to one it holds replaces it rather than counting twice.
    socket.send({ type: 'subscribe', transactionNumber: a.body.TransactionNumber, afterSequence: 0 });
    expect(await socket.next((m) => isSubscribed(m) && 'transactionNumber' in m && m.replayed === 1)).toBeTruthy();
  });
});

describe('protecting the server', () => {
  it('closes a slow consumer with 4008 instead of buffering without bound', async () => {
    const tight = await startApp({ realtime: { slowConsumerBytes: 1_024 } });
    const client = merchantClient(tight, merchant);
    const hold = await authorizedHold(tight, client, 5_000);
    expect(JSON.stringify(hold.transaction).length).toBeGreaterThan(1_024);
    const socket = await merchantSocket(tight);
    socket.send({ type: 'subscribe', transactionNumber: hold.transactionNumber });
    await socket.next(isSubscribed);
    await client.pay({ token: hold.token, amount: 100 });
    expect(await socket.closed).toEqual({ code: WS_CLOSE_CODES.SLOW_CONSUMER, reason: 'slow_consumer' });
    expect(socket.messages.filter(isUpdate)).toEqual([]);
  });

  it('drops a connection that stops answering pings, and keeps one that answers', async () => {
    const fast = await startApp({ realtime: { heartbeatIntervalMs: 50 } });
    const silent = await merchantSocket(fast, { autoPong: false });
    const healthy = await merchantSocket(fast);
    const closed = await silent.closed;
    expect(closed.code).toBe(1006);
    await new Promise((resolve) => setTimeout(resolve, 200));
    healthy.send({ type: 'ping' });
    await healthy.next((m) => m.type === 'pong');
  });

  it('close() closes every socket with 1001, unlistens and stops taking upgrades', async () => {
    // Counts the LISTEN registrations the realtime module holds on its postgres.js client (the events channel; the
    // test app listens for credential changes too).
    let listening = 0;
    const listener = new Proxy(database.listener, {
      get(target, property, receiver) {
        if (property !== 'listen') return Reflect.get(target, property, receiver) as unknown;
        return async (...args: Parameters<typeof target.listen>) => {
          const meta = await target.listen(...args);
          if (args[0] !== EVENTS_CHANNEL) return meta;
          const unlisten = meta.unlisten.bind(meta);
          listening += 1;
          return Object.assign(meta, {
            unlisten: async () => {
              listening -= 1;
              await unlisten();
            },
          });
        };
      },
    });
    const closing = await startRealtimeApp({ ...database, listener });
    expect(listening).toBe(1);
    const socket = await openSocket(closing, { headers: bearer(merchant.apiKey) });
    socket.send({ type: 'subscribe', scope: 'merchant' });
    await socket.next(isSubscribed);
    await closing.realtime.close();
    expect(await socket.closed).toMatchObject({ code: WS_CLOSE_CODES.GOING_AWAY });
    expect(listening).toBe(0);
    await expect(openSocket(closing, { headers: bearer(merchant.apiKey) })).rejects.toThrow();
    await closing.close();
  });
});
