import { readFileSync } from 'node:fs';
import path from 'node:path';
import type postgres from 'postgres';
import { MIGRATIONS_DIR } from '../../db/migrate';
import { replicaLagSeconds } from '../../db/replica-lag';
import type { CheckReadiness } from '../../readiness';

/**
 * The database answers `select 1`. The detail names the failure by its code only: /readyz is public, and a
 * connection error's message names hosts and users.
 */
export function databaseAnswers(sql: postgres.Sql): CheckReadiness {
  return async () => {
    const started = performance.now();
    try {
      await sql`select 1`;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { ok: false, detail: `no answer${typeof code === 'string' ? ` (${code})` : ''}` };
    }
    return { ok: true, detail: `answered in ${Math.round(performance.now() - started)} ms` };
  };
}

/** The newest migration this build carries, from drizzle-kit's journal beside the SQL files. */
function newestMigration(): { tag: string; when: number } {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  const newest = journal.entries.at(-1);
  if (!newest) throw new Error('the migrations journal lists no migration');
  return newest;
}

/** Every migration of this build is applied: drizzle's table records the newest one's timestamp. */
export function migrationsApplied(sql: postgres.Sql): CheckReadiness {
  const newest = newestMigration();
  return async () => {
    const [row] = await sql<{ newest: number | null }[]>`select max(created_at)::float8 as newest from drizzle.__drizzle_migrations`;
    if (row?.newest != null && row.newest >= newest.when) return { ok: true, detail: `applied up to ${newest.tag}` };
    return { ok: false, detail: `${newest.tag} is not applied: another instance may be migrating, or this build is newer than the database` };
  };
}

/**
 * The read replica (DATABASE_READ_URL) answers, and how far behind the primary it replays; reported, not required
 * (the detail names an error by its code only, as databaseAnswers does).
 */
export function replicaReplays(sql: postgres.Sql): CheckReadiness {
  return async () => {
    try {
      const lag = await replicaLagSeconds(sql);
      return { ok: true, detail: lag === null ? 'answers; no transaction replayed yet' : `replays ${lag.toFixed(1)} s behind the primary` };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { ok: false, detail: `no answer${typeof code === 'string' ? ` (${code})` : ''}: the transaction list and the audit log answer 503 meanwhile` };
    }
  };
}
