import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { openDatabase } from './client';
import { localSocketPath } from './local-socket';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ max: 1 });
});
afterAll(() => database.drop());

interface ServerFacts {
  started: string;
  port: string;
  dirs: string;
}

async function serverFacts(): Promise<ServerFacts> {
  const [row] = await database.sql<ServerFacts[]>`select pg_postmaster_start_time()::text as started, current_setting('port') as port,
    current_setting('unix_socket_directories') as dirs`;
  return row!;
}

describe('localSocketPath', () => {
  it('finds the socket of the server a loopback URL names when that server has one here, and a pool through it reaches the same server', async () => {
    const facts = await serverFacts();
    // The test server's own socket, if it has one this process can reach (the machine's PostgreSQL, or the embedded
    // cluster's in its folder).
    const expected =
      facts.dirs
        .split(',')
        .map((dir) => path.join(dir.trim(), `.s.PGSQL.${facts.port}`))
        .find((file) => file.startsWith('/') && existsSync(file)) ?? null;
    const socket = await localSocketPath(database.url);
    expect(socket).toBe(expected);
    if (socket === null) return;

    const handle = openDatabase(database.url, { max: 1, socketPath: socket });
    try {
      const [row] = await handle.sql<{ addr: string | null; started: string; db: string }[]>`
        select inet_server_addr()::text as addr, pg_postmaster_start_time()::text as started, current_database() as db`;
      expect(row).toEqual({ addr: null, started: facts.started, db: database.name }); // no server address: a Unix socket
      await handle.probe();
    } finally {
      await handle.close();
    }
  });

  it('keeps TCP for a port other than the server’s own (a proxy or a forwarded port), even when it leads to the same server', async () => {
    const facts = await serverFacts();
    const proxy = net.createServer((client) => {
      const upstream = net.connect({ host: '127.0.0.1', port: Number(new URL(database.url).port || 5432) });
      client.pipe(upstream).pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const url = new URL(database.url);
      url.port = String((proxy.address() as net.AddressInfo).port);
      const handle = openDatabase(url.toString(), { max: 1 });
      try {
        const [row] = await handle.sql<{ started: string }[]>`select pg_postmaster_start_time()::text as started`;
        expect(row!.started).toBe(facts.started); // the proxy does lead to the same server
      } finally {
        await handle.close();
      }
      expect(await localSocketPath(url.toString())).toBeNull();
    } finally {
      proxy.close();
    }
  });

  it('keeps TCP for a URL that asks for TLS, names a host that is not this one, or cannot log in', async () => {
    const url = new URL(database.url);
    url.searchParams.set('sslmode', 'disable');
    expect(await localSocketPath(url.toString())).toBeNull();

    const remote = new URL(database.url);
    remote.hostname = 'db.invalid';
    expect(await localSocketPath(remote.toString())).toBeNull();

    const stranger = new URL(database.url);
    stranger.username = 'no_such_role_for_socket_test';
    stranger.password = 'x';
    expect(await localSocketPath(stranger.toString())).toBeNull();

    expect(await localSocketPath('not a url')).toBeNull();
  });
});
