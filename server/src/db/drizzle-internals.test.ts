import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Queryable } from './client';
import { columnParam, reusableQuery } from './reusable-query';
import { merchants } from './schema';

/**
 * db/client.ts and db/reusable-query.ts reach into drizzle's postgres-js session (BENCHMARKS.md: preparing every
 * query, building a query once). These checks name what they rely on, with a recording stand-in for postgres.js,
 * so an upgrade that changes it fails here rather than in production. drizzle-orm is pinned to an exact version.
 */
function recordingDriver() {
  const calls: { query: string; params: unknown[]; prepare: unknown }[] = [];
  const client = {
    options: { parsers: {} as Record<string, unknown>, serializers: {} as Record<string, unknown> },
    unsafe(query: string, params: unknown[], options: { prepare?: unknown }) {
      calls.push({ query, params, prepare: options?.prepare });
      return Object.assign(Promise.resolve([]), { values: () => Promise.resolve([]) });
    },
  };
  return { client, calls };
}

describe('drizzle internals the database layer relies on', () => {
  it('drizzle-orm is pinned to the exact version installed', () => {
    const pinned = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> }).dependencies[
      'drizzle-orm'
    ];
    const installed = (JSON.parse(readFileSync(new URL('../../node_modules/drizzle-orm/package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(pinned);
  });

  it('every query goes to postgres.js with prepare: true once openDatabase has run (PostgresJsPreparedQuery#prepare)', async () => {
    const handle = openDatabase('postgres://nobody@127.0.0.1:1/none');
    await handle.close();
    const { client, calls } = recordingDriver();
    const db = drizzle(client as never);
    await db.select({ id: merchants.id }).from(merchants).where(eq(merchants.name, 'x'));
    await db.execute(sql`select 1`);
    expect(calls.map((call) => call.prepare)).toEqual([true, true]);
  });

  it('a database or transaction exposes its postgres.js client as session.client, and a prepared query runs on this.client', async () => {
    const first = recordingDriver();
    const second = recordingDriver();
    const built = drizzle(first.client as never);
    const other = drizzle(second.client as never);
    expect((other as unknown as { session: { client: unknown } }).session.client).toBe(second.client);
    const named = reusableQuery('drizzle_internals_named', { name: columnParam(merchants.name) }, (db, slots) =>
      db.select({ id: merchants.id }).from(merchants).where(eq(merchants.name, slots.name)),
    );
    await named(built as unknown as Queryable, { name: 'a' });
    await named(other as unknown as Queryable, { name: 'b' });
    expect(first.calls.map((call) => call.params)).toEqual([['a']]);
    expect(second.calls.map((call) => call.params)).toEqual([['b']]);
    expect(second.calls[0]!.query).toBe(first.calls[0]!.query);
  });
});
