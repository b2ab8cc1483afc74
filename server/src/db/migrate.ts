import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import postgres from 'postgres';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** drizzle's journal of applied migrations, as its own migrator keeps it (so drizzle-kit and this agree on what is applied). */
const JOURNAL = 'drizzle.__drizzle_migrations';
const JOURNAL_DDL = [
  'create schema if not exists drizzle',
  `create table if not exists ${JOURNAL} (id serial primary key, hash text not null, created_at bigint)`,
];
/**
 * A concurrent first start may find the journal being created by another: its `create … if not exists` then fails
 * once the other commits (a unique violation in the catalog, or the schema or table already there). Tried again, it
 * finds them made.
 */
const CREATED_MEANWHILE = new Set(['23505', '42P06', '42P07']);

/**
 * Applies the SQL migrations made by drizzle-kit (those of `migrationsFolder` not yet in the journal, in order), in one
 * transaction on a connection of its own, recording each in drizzle's journal. Concurrent starts never apply a
 * migration twice: the transaction locks the journal (SHARE ROW EXCLUSIVE, which conflicts with itself and with writes,
 * not with readers such as the readiness check) before it reads what is applied, so a second starter waits for the
 * first to commit and then finds nothing left to do. The lock is the transaction's own and no statement is prepared:
 * nothing is tied to a session, so this runs through a transaction-pooling PgBouncer as well as on PostgreSQL itself.
 */
export async function applyMigrations(url: string, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder });
  const sql = postgres(url, { max: 1, prepare: false, onnotice: () => undefined, connect_timeout: 10 });
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await sql.begin(async (tx) => {
          for (const statement of JOURNAL_DDL) await tx.unsafe(statement);
          await tx.unsafe(`lock table ${JOURNAL} in share row exclusive mode`);
          const [last] = await tx.unsafe<{ created_at: string }[]>(`select created_at from ${JOURNAL} order by created_at desc limit 1`);
          for (const migration of migrations) {
            if (last && Number(last.created_at) >= migration.folderMillis) continue;
            for (const statement of migration.sql) await tx.unsafe(statement);
            await tx.unsafe(`insert into ${JOURNAL} (hash, created_at) values ($1, $2)`, [migration.hash, migration.folderMillis]);
          }
        });
        return;
      } catch (error) {
        if (attempt > 1 || !CREATED_MEANWHILE.has((error as { code?: string }).code ?? '')) throw error;
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
