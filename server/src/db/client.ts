import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { PostgresJsPreparedQuery } from 'drizzle-orm/postgres-js/session';
import postgres from 'postgres';
import { publishingAfterCommit } from './after-commit';
import { DatabaseAnswerTimeoutError, socketWithAnswerDeadline } from './answer-deadline';
import { firstHostUrl, hostsOf, withHosts } from './database-url';

/**
 * drizzle without its relational query API (`db.query.*`, unused here): given the schema, drizzle builds a query
 * builder for every table on every transaction it opens (bench/findings.md).
 */
export type Database = PostgresJsDatabase;
/** A transaction handle: what services take so that every write of one change commits together. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Either the pool or an open transaction; query functions take this first. */
export type Queryable = Database | Tx;

export interface DatabaseHandle {
  db: Database;
  sql: postgres.Sql;
  /** `select 1` on a connection of its own with a short timeout: whether the database answers now. */
  probe(): Promise<unknown>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  max?: number;
  /** How long opening a connection may take; a database that does not answer fails start-up with a clear message. */
  connectTimeoutMs?: number;
  /** PostgreSQL's statement_timeout; a database that answers nothing is given this plus 1 s (socketWithAnswerDeadline). */
  statementTimeoutMs?: number;
  /**
   * Connect through this Unix socket of the server `url` names (`localSocketPath`) instead of the URL's TCP address;
   * the URL still gives the user, password and database.
   */
  socketPath?: string | null;
  /** The pool's application_name in PostgreSQL: how this instance finds its own connections in pg_stat_activity. */
  applicationName?: string;
  /**
   * false: no statement is prepared (each is parsed again, in an unnamed statement), for a transaction-pooling
   * PgBouncer, which hands each transaction to whichever server connection is free (DATABASE_PREPARED_STATEMENTS).
   */
  prepare?: boolean;
}

/** A reconnect waits at most half a second, so service resumes promptly when the database is back. */
const reconnectBackoffS = (retries: number) => Math.min(0.05 * retries, 0.5);
const PROBE_TIMEOUT_MS = 1_000;

/**
 * `select 1` on a connection of its own, opened for this probe and closed after it, bounded by PROBE_TIMEOUT_MS
 * whatever happens: a probe never inherits the state of an earlier connection, and never waits longer.
 */
async function probeOnce(url: string, socketPath: string | null): Promise<void> {
  const probe = postgres(url, {
    ...(socketPath ? { path: socketPath } : {}),
    max: 1,
    connect_timeout: PROBE_TIMEOUT_MS / 1000,
    backoff: () => 0,
    ...answerDeadline(PROBE_TIMEOUT_MS),
    onnotice: () => undefined,
  });
  let timer: NodeJS.Timeout | undefined;
  // Should the timeout win, the query still settles later (ended below): handled here, not an unhandled rejection.
  const answered = probe`select 1`.then(() => undefined);
  answered.catch(() => undefined);
  try {
    await Promise.race([
      answered,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new DatabaseAnswerTimeoutError(`no answer to the probe within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    void probe.end({ timeout: 0 }).catch(() => undefined);
  }
}

/** postgres.js takes a `socket` factory, which its type declarations leave out. */
const answerDeadline = (ms: number): object => ({ socket: socketWithAnswerDeadline(ms) });

/**
 * drizzle sends a query as a prepared statement only when it was built with `.prepare(name)`; every other query
 * goes to postgres.js `unsafe` unprepared, so PostgreSQL parses and plans it on every call and postgres.js spends
 * an extra round trip describing its parameters first (bench/findings.md). postgres.js keeps prepared statements
 * per connection, keyed by their text and types, so preparing every query drizzle builds is safe: after its first
 * use on a connection, each is one round trip. (Not for a transaction-pooling PgBouncer in front of PostgreSQL,
 * which cannot keep prepared statements: the pool's `prepare: false` overrides every query's, below.)
 */
let everyQueryPrepared = false;
function prepareEveryQuery(): void {
  if (everyQueryPrepared) return;
  everyQueryPrepared = true;
  Object.defineProperty(PostgresJsPreparedQuery.prototype, 'prepare', {
    configurable: true,
    get: () => true,
    set: () => undefined,
  });
}

/**
 * The pool. Every wait on the database is bounded: connecting by `connectTimeoutMs`, a statement by PostgreSQL's
 * statement_timeout, a transaction left idle (its client gone) by idle_in_transaction_session_timeout, and a database
 * that answers nothing by the answer deadline; a lost connection is replaced at the next query, without a restart.
 */
export function openDatabase(
  url: string,
  { max = 10, connectTimeoutMs = 5_000, statementTimeoutMs = 10_000, socketPath = null, applicationName, prepare = true }: OpenDatabaseOptions = {},
): DatabaseHandle {
  prepareEveryQuery();
  const sql = postgres(url, {
    ...(socketPath ? { path: socketPath } : {}),
    // postgres.js prepares a query only when both the pool and the query say so.
    prepare,
    max,
    connect_timeout: connectTimeoutMs / 1000,
    idle_timeout: 60,
    backoff: reconnectBackoffS,
    ...answerDeadline(statementTimeoutMs + 1_000),
    connection: {
      statement_timeout: statementTimeoutMs,
      idle_in_transaction_session_timeout: 2 * statementTimeoutMs,
      ...(applicationName ? { application_name: applicationName } : {}),
    },
    onnotice: () => undefined,
    // int8 arrives as a JS number: amounts are bounded far below 2^53 by protocol's MAX_AMOUNT_CENTS, and counts too.
    types: {
      int8AsNumber: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (value: string) => Number(value) },
    },
  });
  const db = publishingAfterCommit(drizzle(sql));
  return {
    db,
    sql,
    probe: () => probeOnce(url, socketPath),
    close: () => sql.end({ timeout: 5 }),
  };
}

/** Fails with a short, readable message when the database cannot be reached. */
export async function checkConnection(sql: postgres.Sql): Promise<void> {
  await sql`select 1`;
}

/** The message to print for a connection failure: what failed and where, no stack. */
export function describeConnectionError(error: unknown, url: string): string {
  const where = safeUrl(url);
  const e = error as { code?: string; message?: string };
  const reason = e.code ? `${e.code}: ${e.message ?? ''}` : (e.message ?? String(error));
  return `cannot connect to the database at ${where} (${reason.trim()})`;
}

/** The URL without its password, for logs and messages (every host of a URL of several). */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(firstHostUrl(url));
    if (parsed.password) parsed.password = '***';
    return withHosts(parsed.toString(), hostsOf(url));
  } catch {
    return '<unparseable DATABASE_URL>';
  }
}
