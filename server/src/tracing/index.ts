/** Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set; nothing loaded otherwise. */
export { currentTraceId, inSpan, startTracing, traceTransactions, type Tracing } from './tracing';
export { requestSpans } from './request-spans';
