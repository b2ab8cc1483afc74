import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Nothing the service does may depend on staying on one database connection from one transaction to the next: a
 * transaction-pooling PgBouncer hands each transaction to whichever server connection is free, and an engine that
 * shards by merchant runs it on whichever node holds the rows. So the service's SQL holds no advisory lock (it lives in
 * one server's lock manager, for one connection: claims are rows, `INSERT … ON CONFLICT` or `FOR UPDATE SKIP LOCKED`),
 * sets nothing for the session (`SET LOCAL` and `set_config(…, true)` end with the transaction), makes no temporary
 * table and prepares no statement by name in SQL (the driver's own prepared statements are turned off behind a
 * pooler: DATABASE_PREPARED_STATEMENTS). The one connection the service keeps is its LISTEN (DATABASE_LISTEN_URL),
 * which is the driver's `listen`, not SQL.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const FORBIDDEN: [string, RegExp][] = [
  ['an advisory lock', /pg_(try_)?advisory_/i],
  ['a session-level SET', /(^|[`'"]\s*)set\s+(session\s+)?(?!local\b)[a-z_.]+\s*(=|to\b)/im],
  ['a session-level set_config', /set_config\([^)]*,\s*false\s*\)/i],
  ['a temporary table', /create\s+(temp|temporary)\s+table/i],
  ['a statement prepared by name in SQL', /(^|[`'";]\s*)(prepare\s+[a-z_]+\s*(\(|as\b)|deallocate\b)/im],
];

function serviceSources(): string[] {
  return (readdirSync(SRC, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith(`test${path.sep}`))
    .map((file) => path.join(SRC, file));
}

describe("the service's SQL", () => {
  it('holds no advisory lock and keeps no session state: every lock and setting ends with its transaction', () => {
    const found: string[] = [];
    for (const file of serviceSources()) {
      const text = readFileSync(file, 'utf8');
      for (const [what, pattern] of FORBIDDEN) if (pattern.test(text)) found.push(`${path.relative(SRC, file)}: ${what}`);
    }
    expect(found).toEqual([]);
  });

  it('would tell each of them', () => {
    const samples = [
      'select pg_try_advisory_xact_lock(1)',
      "sql`set statement_timeout = '1s'`",
      "select set_config('lock_timeout', '1ms', false)",
      'create temporary table scratch (id int)',
      'sql`prepare claim as select 1`',
    ];
    expect(samples.map((sample) => FORBIDDEN.filter(([, pattern]) => pattern.test(sample)).map(([what]) => what))).toEqual(FORBIDDEN.map(([what]) => [what]));
    expect(FORBIDDEN.filter(([, pattern]) => pattern.test("sql`set local lock_timeout = '1ms'`"))).toEqual([]);
  });
});
