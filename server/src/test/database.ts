import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle, type OpenDatabaseOptions } from '../db/client';
import { withDatabase } from './database-url';
import type {} from './global-setup';
import { pooledUrl } from './pooled-mode';

export interface TestDatabase extends DatabaseHandle {
  /** The database's own URL, straight to the server (for clients a test opens itself). */
  url: string;
  name: string;
  /** Where LISTEN goes: the pool's `sql`, or a direct client when the pool goes through PgBouncer (pooled-mode.ts). */
  listener: postgres.Sql;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/** The pool size of a test database's handle, and of an app's own pool beside it (harness.ts). */
export const TEST_POOL_MAX = 10;

/** A fresh, migrated database cloned from the run's template; nothing is shared between test files. */
export async function createTestDatabase(options: { max?: number } = {}): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const template = inject('templateDatabase');
  const name = `svc_test_${template.slice(8)}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  try {
    await admin.unsafe(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  const handle = openTestPool(url, { max: options.max ?? TEST_POOL_MAX });
  const listener = pooledUrl(url) ? postgres(url, { max: 1, onnotice: () => undefined }) : handle.sql;
  return {
    ...handle,
    url,
    name,
    listener,
    drop: async () => {
      await handle.close();
      if (listener !== handle.sql) await listener.end();
      const dropper = postgres(adminUrl, { max: 1, onnotice: () => undefined });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/**
 * A pool on a test database (by its direct URL): through PgBouncer, with no prepared statement, in pooled mode. Except a
 * pool with a statement timeout of its own: PgBouncer drops the timeouts the service sends when it connects (a
 * deployment behind one sets them on its role: docs/operating.md#connection-poolers), so that one goes straight.
 */
export function openTestPool(url: string, options: OpenDatabaseOptions = {}): DatabaseHandle {
  const pooled = options.statementTimeoutMs === undefined ? pooledUrl(url) : null;
  return openDatabase(pooled ?? url, pooled ? { ...options, prepare: false } : options);
}
