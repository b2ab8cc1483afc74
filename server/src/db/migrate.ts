import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any fixed number: every instance takes the same lock, so two starting at once migrate one after the other. */
const MIGRATION_LOCK_KEY = 7_270_001;

/**
 * Applies the SQL migrations made by drizzle-kit. A client of its own with a single connection holds a
 * session advisory lock around the run, so concurrent starts never apply a migration twice.
 */
export async function applyMigrations(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined, connect_timeout: 10 });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_DIR });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
