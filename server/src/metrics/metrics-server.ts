import http from 'node:http';
import type { Logger } from '../logger';
import type { ServiceMetrics } from './metrics';

/**
 * `GET /metrics` in the Prometheus text format on a listener of its own (METRICS_HOST:METRICS_PORT), never on the
 * public port; anything else there is 404. Resolves once it listens.
 */
export async function startMetricsServer(
  metrics: ServiceMetrics,
  { host, port, logger }: { host: string; port: number; logger: Logger },
): Promise<http.Server> {
  metrics.collectProcessMetrics();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the metrics are at GET /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(text),
      (error: Error) => {
        logger.warn({ err: error }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('scrape failed\n');
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}
