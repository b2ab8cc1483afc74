import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { openDatabase } from './client';
import { firstHostUrl, hostsOf, withHosts } from './database-url';
import { outageCode } from './database-outage';
import { freePort } from './embedded';

// A DATABASE_URL naming several hosts (`postgres://…@h1:5432,h2:5433/svc?target_session_attrs=read-write`): the
// driver tries them in turn. The primary-and-standby case (a read-only host skipped) is the failover test's
// (failover.test.ts); here, hosts that refuse connections, for the service's pool (whose sockets carry the answer
// deadline) and for a plain client (LISTEN, migrations).
let database: TestDatabase;
/** A port nothing listens on: connections to it are refused. */
let deadHost: string;
beforeAll(async () => {
  database = await createTestDatabase({ max: 1 });
  deadHost = `127.0.0.1:${await freePort()}`;
});
afterAll(async () => {
  await database?.drop();
});

const clients = {
  "the service's pool": (url: string) => openDatabase(url, { max: 1, connectTimeoutMs: 2_000 }).sql,
  'a plain client': (url: string) => postgres(url, { max: 1, connect_timeout: 2, onnotice: () => undefined }),
};

describe('a database URL of several hosts', () => {
  it('parses into its hosts, and its first host is a URL of its own', () => {
    const url = 'postgres://svc:pw@h1:5432,h2:5433/svc?target_session_attrs=read-write';
    expect(hostsOf(url)).toEqual(['h1:5432', 'h2:5433']);
    expect(firstHostUrl(url)).toBe('postgres://svc:pw@h1:5432/svc?target_session_attrs=read-write');
    expect(withHosts(url, ['h3'])).toBe('postgres://svc:pw@h3/svc?target_session_attrs=read-write');
  });

  for (const [name, open] of Object.entries(clients)) {
    it(`${name} reaches the second host when the first refuses`, async () => {
      const sql = open(withHosts(database.url, [deadHost, ...hostsOf(database.url)]));
      try {
        const [row] = await sql<{ db: string }[]>`select current_database() as db`;
        expect(row!.db).toBe(database.name);
      } finally {
        await sql.end({ timeout: 1 });
      }
    });

    it(`${name} fails a query once every host refused, rather than wait for one to come back`, async () => {
      const sql = open(withHosts(database.url, [deadHost, deadHost]));
      try {
        const error = await sql`select 1`.then(
          () => null,
          (e: unknown) => e,
        );
        // An outage (503 with Retry-After), not a wait as long as the hosts are down.
        expect(outageCode(error)).toBe('ECONNREFUSED');
      } finally {
        await sql.end({ timeout: 1 });
      }
    });
  }
});
