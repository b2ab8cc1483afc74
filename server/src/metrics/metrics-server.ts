import http from 'node:http';
import type { ReadinessDetail } from '@svc/protocol';
import type { Logger } from '../logger';
import type { ReadinessChecks } from '../readiness';
import type { ServiceMetrics } from './metrics';

/**
 * The operator's listener (METRICS_HOST:METRICS_PORT), never the public port: `GET /metrics` in the Prometheus text
 * format and, given the readiness checks, `GET /readyz` with what each check found (the public /readyz says only
 * whether the instance is ready). Anything else there is 404. Resolves once it listens.
 */
export async function startMetricsServer(
  metrics: ServiceMetrics,
  { host, port, logger, readiness }: { host: string; port: number; logger: Logger; readiness?: Pick<ReadinessChecks, 'run'> },
): Promise<http.Server> {
  metrics.collectProcessMetrics();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/readyz' && readiness) {
      readiness.run().then(({ ok, checks }) => {
        const body: ReadinessDetail = { status: ok ? 'ready' : 'not_ready', checks };
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
      }, reportFailure('readiness checks'));
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: the metrics are at GET /metrics${readiness ? ', readiness at GET /readyz' : ''}\n`);
      return;
    }
    metrics.registry
      .metrics()
      .then(
        (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(text),
        reportFailure('metrics scrape'),
      );

    function reportFailure(what: string) {
      return (error: Error) => {
        logger.warn({ err: error }, `${what} failed`);
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`${what} failed\n`);
      };
    }
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}
