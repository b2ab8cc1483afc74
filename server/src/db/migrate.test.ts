import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withDatabase } from '../test/database-url';
import { applyMigrations, MIGRATIONS_DIR } from './migrate';

// Several instances starting at once on a fresh database (the first start of a deployment): each migration is applied
// once, whichever instance applies it, and every start succeeds.
const name = `svc_test_${randomBytes(4).toString('hex')}_migrate`;
let url = '';
let sql: postgres.Sql;

beforeAll(async () => {
  const admin = postgres(inject('adminDatabaseUrl'), { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${name} template template0`);
  await admin.end();
  url = withDatabase(inject('adminDatabaseUrl'), name);
  sql = postgres(url, { max: 1, onnotice: () => undefined });
});

afterAll(async () => {
  await sql?.end();
  const admin = postgres(inject('adminDatabaseUrl'), { max: 1, onnotice: () => undefined });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
});

describe('applyMigrations', () => {
  it('run by five starts at once on a fresh database, applies each migration once', async () => {
    await Promise.all(Array.from({ length: 5 }, () => applyMigrations(url)));
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
    const applied = await sql<{ createdAt: string }[]>`select created_at::text as "createdAt" from drizzle.__drizzle_migrations order by id`;
    expect(applied.map((row) => Number(row.createdAt))).toEqual(journal.entries.map((entry) => entry.when));
    // And again, later: nothing left to apply.
    await applyMigrations(url);
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(row!.n).toBe(journal.entries.length);
  });
});
