import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Queryable } from './client';

/**
 * Which database this is, so that files written for one database are not taken for another's. The embedded database
 * is the one in its folder (recreated there, it is the same place, and the old one is gone); any other is its name
 * and oid in the cluster PostgreSQL identifies by its system identifier.
 */
export async function databaseIdentity(db: Queryable, embeddedDataDir: string | null): Promise<string> {
  if (embeddedDataDir !== null) return `embedded ${path.resolve(embeddedDataDir)}`;
  const [row] = await db.execute<{ identity: string }>(
    sql`select d.datname || ' (oid ' || d.oid || ', cluster ' || s.system_identifier || ')' as identity
          from pg_database d, pg_control_system() s where d.datname = current_database()`,
  );
  return row!.identity;
}
