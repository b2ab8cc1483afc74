import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres, type EmbeddedPostgres } from '../db/embedded';
import { applyMigrations } from '../db/migrate';
import { REPO_ROOT, testHarnessEnvironment } from '../env';
import { withDatabase } from './database-url';
import { startPgBouncer, type PgBouncer } from './pgbouncer';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser connection: test files create their databases from the migrated template through it. */
    adminDatabaseUrl: string;
    templateDatabase: string;
    /** TEST_PGBOUNCER: the port of a transaction-pooling PgBouncer in front of that server, else null. */
    pgBouncerPort: number | null;
  }
}

/**
 * Every test runs on real PostgreSQL: DATABASE_URL's server when set (CI uses the machine's), else a throw-away
 * embedded cluster. The migrations run once into a template database; each test file clones it. With
 * TEST_PGBOUNCER=1, the tests' pools and the servers they start reach their databases through a PgBouncer in
 * transaction mode started here (test/pooled-mode.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The consumer pages' script and style, which the page tests fetch (Vite: a few seconds).
  execFileSync(process.execPath, ['build-pages.mjs'], { cwd: path.join(REPO_ROOT, 'server'), stdio: 'ignore' });
  let embedded: EmbeddedPostgres | null = null;
  let adminUrl = testHarnessEnvironment().databaseUrl;
  if (!adminUrl) {
    embedded = await startThrowawayPostgres();
    adminUrl = embedded.url;
  }
  const template = `svc_tpl_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${template}`);
  let bouncer: PgBouncer | null = null;
  if (testHarnessEnvironment().throughPgBouncer) bouncer = await startPgBouncer(adminUrl, { poolSize: 10, maxClients: 2000 });
  // Straight to the server: a pooler would keep connections to the template, which no database can be cloned from.
  await applyMigrations(withDatabase(adminUrl, template));
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', template);
  project.provide('pgBouncerPort', bouncer?.port ?? null);

  return async () => {
    const leftovers = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`svc_test_${template.slice(8)}_%`}`;
    for (const { datname } of leftovers) await admin.unsafe(`drop database if exists ${datname} with (force)`);
    await admin.unsafe(`drop database if exists ${template} with (force)`);
    await admin.end();
    await bouncer?.stop();
    await embedded?.stop();
  };
}
