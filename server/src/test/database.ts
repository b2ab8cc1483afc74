import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { withDatabase } from './database-url';
import type {} from './global-setup';

export interface TestDatabase extends DatabaseHandle {
  url: string;
  name: string;
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
  const handle = openDatabase(url, { max: options.max ?? TEST_POOL_MAX });
  return {
    ...handle,
    url,
    name,
    drop: async () => {
      await handle.close();
      const dropper = postgres(adminUrl, { max: 1, onnotice: () => undefined });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
