import type { Span, Tracer } from '@opentelemetry/api';

type Attributes = Record<string, string | number | boolean>;

/** OpenTelemetry's API, once tracing started; null otherwise, and then nothing of it is loaded. */
let api: typeof import('@opentelemetry/api') | null = null;
let tracer: Tracer | null = null;

export interface Tracing {
  stop(): Promise<void>;
}

/**
 * Starts OpenTelemetry's Node SDK exporting spans over OTLP/HTTP to `endpoint` (OTEL_EXPORTER_OTLP_ENDPOINT). The
 * packages are imported here, only when the variable is set: unset, `inSpan` is a plain call and nothing is loaded.
 * No automatic instrumentation: the spans are the service's own (a request, a database transaction, a processor
 * call, a callback attempt, a websocket fan-out).
 */
export async function startTracing(endpoint: string): Promise<Tracing> {
  const [{ NodeSDK }, { OTLPTraceExporter }, otel] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/api'),
  ]);
  const sdk = new NodeSDK({
    serviceName: 'svc',
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
    instrumentations: [],
    // Only traces: no metrics reader (Prometheus has them) and no log exporter.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  api = otel;
  tracer = otel.trace.getTracer('svc');
  return {
    async stop() {
      tracer = null;
      api = null;
      await sdk.shutdown();
    },
  };
}

/** Runs `fn` inside a span named `name` (its error recorded) when tracing is on; otherwise just runs it. */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span | null) => Promise<T>): Promise<T> {
  if (!tracer || !api) return fn(null);
  const { SpanStatusCode } = api;
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The trace id of the span running now, for the log line; undefined when tracing is off or no span runs. */
export function currentTraceId(): string | undefined {
  const span = api?.trace.getActiveSpan();
  return span?.spanContext().traceId;
}

/** Every database transaction opened on `db` in a span of its own (main.ts, when tracing is on). */
export function traceTransactions(db: { transaction: (...args: never[]) => Promise<unknown> }): void {
  const original = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
  (db as { transaction: (...args: unknown[]) => Promise<unknown> }).transaction = (...args) => inSpan('db transaction', {}, () => original(...args));
}
