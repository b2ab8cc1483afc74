import net from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { ResilientListener } from './resilient-listener';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** A TCP proxy to the database that can go away (every connection cut, none taken) and come back on the same port. */
async function outageProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  const serve = () =>
    net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      const cut = () => {
        client.destroy();
        upstream.destroy();
      };
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => {
          sockets.delete(socket);
          cut();
        });
        socket.on('error', cut);
      }
      client.pipe(upstream).pipe(client);
    });
  let server = serve();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: Object.assign(new URL(target.href), { hostname: '127.0.0.1', port: String(port) }).href,
    async down() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    async up() {
      server = serve();
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A stand-in for postgres.js: notifications sent through it reach its listeners while it is `alive`; a dead one
 * stays silent, as a listening connection lost for good does.
 */
function fakeConnection() {
  const handlers = new Map<string, (payload: string) => void>();
  const connection = { alive: true, listened: [] as string[], ended: false };
  const sql = Object.assign(
    (_strings: TemplateStringsArray, ...values: unknown[]) => {
      const [channel, payload] = values as [string, string];
      if (connection.alive) handlers.get(channel)?.(payload);
      return Promise.resolve([]);
    },
    {
      listen: async (channel: string, onNotify: (payload: string) => void, onListen?: () => void) => {
        handlers.set(channel, onNotify);
        connection.listened.push(channel);
        onListen?.();
        return { unlisten: async () => undefined };
      },
      end: async () => {
        connection.ended = true;
      },
    },
  );
  return {
    connection,
    sql: sql as unknown as postgres.Sql,
    notify: (channel: string, payload: string) => connection.alive && handlers.get(channel)?.(payload),
  };
}

describe('ResilientListener', () => {
  it('starts over on a new connection when it stops hearing its own ping, and every registration runs onListen again', async () => {
    const made: ReturnType<typeof fakeConnection>[] = [];
    const listener = new ResilientListener(
      () => {
        made.push(fakeConnection());
        return made.at(-1)!.sql;
      },
      createLogger({ level: 'silent' }),
      { checkIntervalMs: 60_000, pingTimeoutMs: 50 },
    );
    await listener.start();
    const received: string[] = [];
    let listens = 0;
    await listener.listen(
      'events',
      (payload) => received.push(payload),
      () => (listens += 1),
    );
    await listener.check();
    expect(made).toHaveLength(1); // heard itself: nothing to do

    made[0]!.connection.alive = false; // the listening connection is gone and nobody said so
    await listener.check();
    expect(made).toHaveLength(2);
    expect(made[0]!.connection.ended).toBe(true);
    expect(made[1]!.connection.listened.sort()).toEqual(['events', 'svc_listener_ping']);
    expect(listens).toBe(2);
    made[1]!.notify('events', 'after');
    expect(received).toEqual(['after']);
    await listener.stop();
  });

  // End to end with the real driver: here postgres.js's own re-listen may already recover; the test above is the one
  // that fails without the check.
  it('keeps hearing notifications, and runs onListen again, through a real outage of the database connection', async () => {
    const proxy = await outageProxy(new URL(database.url));
    const listener = new ResilientListener(
      () => postgres(proxy.url, { max: 1, connect_timeout: 2, onnotice: () => undefined }),
      createLogger({ level: 'silent' }),
      {
        checkIntervalMs: 60_000, // the test runs the checks itself
        pingTimeoutMs: 500,
      },
    );
    try {
      await listener.start();
      const received: string[] = [];
      let listens = 0;
      await listener.listen(
        'svc_test_channel',
        (payload) => received.push(payload),
        () => (listens += 1),
      );
      expect(listens).toBe(1);
      await database.sql`select pg_notify('svc_test_channel', 'before')`;
      await expect.poll(() => received).toEqual(['before']);
      await listener.check(); // heard: nothing happens
      expect(listens).toBe(1);

      // The database goes away long enough for postgres.js's one re-listen to fail, then comes back.
      await proxy.down();
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      await proxy.up();
      await database.sql`select pg_notify('svc_test_channel', 'lost')`;
      await new Promise((resolve) => setTimeout(resolve, 300));

      await listener.check();
      await expect.poll(() => listens, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
      await database.sql`select pg_notify('svc_test_channel', 'after')`;
      await expect.poll(() => received, { timeout: 5_000 }).toContain('after');
    } finally {
      await listener.stop();
      await proxy.close();
    }
  });
});
