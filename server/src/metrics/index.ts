/** The service's Prometheus series and the server that exposes them on METRICS_PORT. */
export { metrics, ServiceMetrics, type ScrapeSources } from './metrics';
export { startMetricsServer } from './metrics-server';
export { httpMetrics } from './http-metrics';
