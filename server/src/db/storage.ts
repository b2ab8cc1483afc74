import { randomBytes } from 'node:crypto';
import type { Env } from '../env';
import type { Logger } from '../logger';
import { checkConnection, describeConnectionError, openDatabase, safeUrl, type DatabaseHandle } from './client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded';
import { localSocketPath } from './local-socket';
import { applyMigrations } from './migrate';

export class StartupError extends Error {
  override name = 'StartupError';
}

export interface Storage extends DatabaseHandle {
  url: string;
  /** The pool's application_name, unique to this process (its connections in pg_stat_activity). */
  applicationName: string;
  embedded: EmbeddedPostgres | null;
  /** The read replica's pool (DATABASE_READ_URL): the transaction list and search and the audit log read there. */
  replica: DatabaseHandle | null;
}

/**
 * The storage rule (docs/operating.md#running-it): DATABASE_URL when set, else the embedded PostgreSQL in DATA_DIR/postgres.
 * Migrations are applied before anything else touches the database.
 */
export async function openStorage(env: Env, logger: Logger): Promise<Storage> {
  let embedded: EmbeddedPostgres | null = null;
  let url = env.DATABASE_URL;
  if (!url) {
    try {
      embedded = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, onLog: (line) => logger.debug({ source: 'postgres' }, line) });
    } catch (error) {
      throw new StartupError(`cannot start the embedded database in ${env.DATA_DIR}/postgres: ${(error as Error).message}`);
    }
    url = embedded.url;
    logger.info({ dataDir: env.DATA_DIR, adopted: embedded.adopted }, 'using the embedded PostgreSQL');
  }
  // A database on this host (the embedded one, or a loopback DATABASE_URL) is reached through its Unix socket when
  // it has one: cheaper statements than over loopback TCP.
  const socketPath = await localSocketPath(url);
  if (socketPath) logger.info({ socket: socketPath }, 'connecting to PostgreSQL through its Unix socket');
  const applicationName = `svc-${process.pid}-${randomBytes(3).toString('hex')}`;
  const handle = openDatabase(url, {
    applicationName,
    max: env.DATABASE_POOL_MAX,
    connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    socketPath,
    prepare: env.DATABASE_PREPARED_STATEMENTS,
  });
  try {
    await checkConnection(handle.sql);
    // One transaction holding its own lock: through a transaction pooler as well (migrate.ts).
    await applyMigrations(url);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw new StartupError(describeConnectionError(error, url));
  }
  // Opened lazily like any pool: a replica down at start delays nothing but its own reads.
  const replica = env.DATABASE_READ_URL
    ? openDatabase(env.DATABASE_READ_URL, {
        applicationName: `${applicationName}-read`,
        max: env.DATABASE_POOL_MAX,
        connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
        prepare: env.DATABASE_PREPARED_STATEMENTS,
      })
    : null;
  if (env.DATABASE_READ_URL) logger.info({ replica: safeUrl(env.DATABASE_READ_URL) }, 'the transaction list and the audit log read from the replica');
  return {
    ...handle,
    url,
    applicationName,
    embedded,
    replica,
    close: async () => {
      await handle.close();
      await replica?.close();
      if (embedded?.owned) await embedded.stop();
    },
  };
}
