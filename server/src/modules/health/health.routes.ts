import type { Health } from '@svc/protocol';
import { Router } from 'express';
import type postgres from 'postgres';
import type { Env } from '../../env';
import { checkConnection } from '../../db/client';
import { ApiError } from '../../errors';

const DATABASE_CHECK_TIMEOUT_MS = 2_000;

/** `GET /healthz`: 200 when the database answers, 503 problem+json otherwise. No credentials, nothing secret. */
export function healthRouter({ sql, env }: { sql: postgres.Sql; env: Env }): Router {
  const router = Router();
  router.get('/healthz', async (_req, res) => {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        checkConnection(sql),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), DATABASE_CHECK_TIMEOUT_MS);
        }),
      ]);
    } catch {
      throw new ApiError('service_unavailable', 'The database does not answer.', { headers: { 'Retry-After': '5' } });
    } finally {
      clearTimeout(timer);
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok', mode: env.SVC_MODE, database: { status: 'ok', latencyMs: Math.round(performance.now() - started) } } satisfies Health);
  });
  return router;
}
