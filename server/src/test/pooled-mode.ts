import { inject } from 'vitest';
import type {} from './global-setup';

/**
 * TEST_PGBOUNCER=1 (CONTRIBUTING.md#tests): the whole suite through a transaction-pooling PgBouncer that the global
 * set-up starts in front of the test server. A test database keeps its direct URL (`url`, for clients a test opens
 * itself and for LISTEN); its pool, and the app on it, go through the pooler with no prepared statement; a server a
 * test starts on a direct URL is given the pooled one, as a deployment behind PgBouncer is configured.
 */
export function pooledUrl(directUrl: string): string | null {
  const port = inject('pgBouncerPort');
  if (port === null || !URL.canParse(directUrl)) return null;
  const pooled = new URL(directUrl);
  const server = new URL(inject('adminDatabaseUrl'));
  if (pooled.host !== server.host) return null;
  pooled.hostname = '127.0.0.1';
  pooled.port = String(port);
  return pooled.toString();
}

/**
 * A spawned server's database settings in pooled mode: DATABASE_URL through the pooler when it names the test server,
 * LISTEN on the direct URL, no prepared statements. Unchanged otherwise (no pooler, or a URL of a proxy or cluster of
 * the test's own).
 */
export function pooledServerEnv(env: Record<string, string>): Record<string, string> {
  const direct = env.DATABASE_URL;
  const pooled = direct ? pooledUrl(direct) : null;
  if (!direct || !pooled) return env;
  return { DATABASE_LISTEN_URL: direct, DATABASE_PREPARED_STATEMENTS: 'false', ...env, DATABASE_URL: pooled };
}
