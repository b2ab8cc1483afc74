import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withDatabase } from '../test/database-url';
import { openDatabase, type DatabaseHandle } from './client';
import { applyMigrations, MIGRATIONS_DIR } from './migrate';

/**
 * Migration 0007 deletes the request fingerprints stored before it, which were hashes of bodies holding a card: those
 * of payment links and SDK sessions, the keys themselves kept (their answers still replay until they expire).
 */
const BEFORE = '0006_fewer_transaction_indexes';

let url = '';
let name = '';
let handle: DatabaseHandle | null = null;

/** The migrations up to and including `last`, as a folder of their own. */
async function migrationsUpTo(last: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-migrations-'));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const until = journal.entries.findIndex((entry) => entry.tag === last);
  expect(until).toBeGreaterThanOrEqual(0);
  journal.entries = journal.entries.slice(0, until + 1);
  await writeFile(journalFile, JSON.stringify(journal));
  return dir;
}

beforeAll(async () => {
  const adminUrl = inject('adminDatabaseUrl');
  name = `svc_test_${inject('templateDatabase').slice(8)}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${name} template template0`);
  await admin.end();
  url = withDatabase(adminUrl, name);
  const folder = await migrationsUpTo(BEFORE);
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await migrate(drizzle(sql), { migrationsFolder: folder });
  } finally {
    await sql.end();
    await rm(folder, { recursive: true, force: true });
  }
  handle = openDatabase(url, { max: 2 });
});

afterAll(async () => {
  await handle?.close();
  const admin = postgres(inject('adminDatabaseUrl'), { max: 1, onnotice: () => undefined });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
});

describe('migration 0007', () => {
  it('deletes the fingerprints of link and session keys, keeps their answers, and leaves merchant keys as they were', async () => {
    const { sql } = handle!;
    // The merchant as the schema before 0007 holds it (today's schema has columns the migrations add later).
    const [merchant] = await sql<{ merchantId: string }[]>`
      insert into merchants (name, hmac_secret) values ('Upgraded Shop', 'whsec_upgraded') returning id as "merchantId"`;
    const keys = ['link:AAAAAAAAAAAAAAAAAAAAAAAA attempt-1', 'session:3f2c5d7e-0000-4000-8000-000000000001 attempt-2', 'merchant-capture-1'];
    for (const key of keys) {
      await sql`
        insert into idempotency_keys (merchant_id, key, request_hash, response_status, response_body, created_at, expires_at)
        values (${merchant!.merchantId}, ${key}, '\\xdeadbeef'::bytea, 200, '{"kept":true}', now(), now() + interval '1 day')`;
    }
    await applyMigrations(url);

    const rows = await sql<{ key: string; request_hash: Buffer | null; response_body: string }[]>`
      select key, request_hash, response_body from idempotency_keys order by key`;
    const byKey = new Map(rows.map((row) => [row.key, row]));
    expect(byKey.get(keys[0]!)).toMatchObject({ request_hash: null, response_body: '{"kept":true}' });
    expect(byKey.get(keys[1]!)).toMatchObject({ request_hash: null, response_body: '{"kept":true}' });
    expect(byKey.get(keys[2]!)?.request_hash?.toString('hex')).toBe('deadbeef');
    const [index] = await sql<{ indexdef: string }[]>`
      select indexdef from pg_indexes where tablename = 'idempotency_keys' and indexname = 'idempotency_keys_expires_at_idx'`;
    expect(index?.indexdef).toContain('(expires_at)');
  });
});
