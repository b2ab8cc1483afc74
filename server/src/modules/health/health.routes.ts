import { ENDPOINT, type Health, type Liveness, type Readiness } from '@svc/protocol';
import type postgres from 'postgres';
import type { Env } from '../../env';
import { checkConnection } from '../../db/client';
import { DatabaseAnswerTimeoutError } from '../../db/answer-deadline';
import type { DatabaseHealth } from '../../db/database-health';
import { DatabaseUnavailableError } from '../../errors';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import type { ReadinessChecks } from '../../readiness';

const DATABASE_CHECK_TIMEOUT_MS = 2_000;

/**
 * `GET /healthz`: 200 when the database answers, else 503 `database_unavailable` with Retry-After (at once while the
 * database is known to be down: the gate in front answers). No credentials, nothing secret.
 */
export function healthRoutes({ sql, env, databaseHealth }: { sql: postgres.Sql; env: Env; databaseHealth?: DatabaseHealth }): EndpointRoute[] {
  return [
    route(ENDPOINT.health, async ({ res }) => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        // Should the timeout win, the check still settles later: handled here, not an unhandled rejection.
        const checked = checkConnection(sql);
        checked.catch(() => undefined);
        await Promise.race([
          checked,
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new DatabaseAnswerTimeoutError(`no answer within ${DATABASE_CHECK_TIMEOUT_MS} ms`)), DATABASE_CHECK_TIMEOUT_MS);
          }),
        ]);
      } catch (error) {
        databaseHealth?.report(error);
        throw new DatabaseUnavailableError();
      } finally {
        clearTimeout(timer);
      }
      res.setHeader('Cache-Control', 'no-store');
      res.json({ status: 'ok', mode: env.SVC_MODE, database: { status: 'ok', latencyMs: Math.round(performance.now() - started) } } satisfies Health);
    }),
  ];
}

/**
 * `GET /livez` and `GET /readyz`, mounted ahead of the database gate: liveness answers 200 whatever the database does;
 * readiness runs every check and answers 200 `ready` or 503 `not_ready`, and nothing more: what each check found (the
 * last migration, each worker's tick) is the operator's, on the metrics listener (metrics-server.ts).
 */
export function probeRoutes({ readiness }: { readiness: ReadinessChecks }): EndpointRoute[] {
  return [
    route(ENDPOINT.liveness, async ({ res }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json({ status: 'ok' } satisfies Liveness);
    }),
    route(ENDPOINT.readiness, async ({ res }) => {
      const { ok } = await readiness.run();
      res.setHeader('Cache-Control', 'no-store');
      res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not_ready' } satisfies Readiness);
    }),
  ];
}
