import type postgres from 'postgres';
import type { Clock, TestClock } from './clock';
import type { Database } from './db/client';
import type { DatabaseHealth } from './db/database-health';
import type { Env } from './env';
import type { CredentialCache } from './http/credential-cache';
import type { RateLimiter } from './http/rate-limit';
import type { Logger } from './logger';
import type { MessageOutbox } from './messages/message-outbox';
import type { ReadinessChecks } from './readiness';
import type { PaymentProcessor } from './processor/processor';
import type { ProcessorRegistry } from './processor/processor-registry';

/** Everything the app is built from: a type below the routers that take it, so that none of them imports app.ts. */
export interface AppDeps {
  env: Env;
  db: Database;
  /**
   * Where the transaction list and search and the audit log read: the read replica's pool (DATABASE_READ_URL), else
   * `db`. Whatever a merchant acts on is read from `db`, the primary.
   */
  readDb: Database;
  sql: postgres.Sql;
  logger: Logger;
  clock: Clock;
  /** Sandbox only: the shared test clock behind /sandbox/clock (it is also `clock`). Production refuses one. */
  testClock?: TestClock;
  limiter: RateLimiter;
  /** Required: production must never get the sandbox processor by default (see processorForMode). */
  processor: PaymentProcessor;
  /** Each merchant's processor (its own account, else `processor`); absent, every merchant's is `processor`. */
  processors?: ProcessorRegistry;
  /** Consumer messages (payment links by SMS or e-mail); the sandbox outbox records them in the database. */
  messages: MessageOutbox;
  /** Live credentials by key hash (authenticate); main.ts makes it forget changed ones as they are announced. */
  credentials: CredentialCache;
  /** Whether the database is reachable: requests answer 503 database_unavailable at once while it is not. */
  databaseHealth: DatabaseHealth;
  /** What GET /readyz checks; main.ts adds the listener and the workers' heartbeats to the database's checks. */
  readiness: ReadinessChecks;
}

export type AppDepsInput = Omit<AppDeps, 'limiter' | 'credentials' | 'messages' | 'databaseHealth' | 'readiness' | 'readDb'> & {
  readDb?: Database;
  databaseHealth?: DatabaseHealth;
  readiness?: ReadinessChecks;
  limiter?: RateLimiter;
  credentials?: CredentialCache;
  messages?: MessageOutbox;
};
