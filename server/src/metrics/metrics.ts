import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What the scrape reads from elsewhere at the moment it runs: each is cheap (a gauge kept by the code that changes it,
 * or one count over a partial index), never a table scan.
 */
export interface ScrapeSources {
  databaseUp(): boolean;
  /** This instance's pool connections by their state in PostgreSQL (active, idle, …). */
  poolConnections(): Promise<Record<string, number>>;
  /** Callback deliveries waiting for an attempt (pending). */
  callbackBacklog(): Promise<number>;
  /** Processor requests not finished, by state (in_flight, needs_review). */
  processorRequests(): Promise<Record<string, number>>;
  /** How far the read replica (DATABASE_READ_URL) replays behind the primary, in seconds; absent without one. */
  replicaLagSeconds?(): Promise<number | null>;
}

/**
 * The service's Prometheus series (served on METRICS_PORT only, docs/operating.md#metrics). Labels are closed sets (a
 * route pattern, a method, a status, an outcome, a state): never a credential, a transaction number, a link id, an
 * address or anything a consumer typed.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly callbackDeliveries = new Counter({
    name: 'svc_callback_deliveries_total',
    help: 'Callback attempts by outcome: succeeded, retrying (failed, another attempt is scheduled) or failed (given up).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly processorCalls = new Counter({
    name: 'svc_processor_calls_total',
    help: 'Calls to the payment processor by operation and outcome (approved, declined, failed, unanswered).',
    labelNames: ['operation', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly refunds = new Counter({
    name: 'svc_refunds_total',
    help: 'Refunds by outcome.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly websocketConnections = new Gauge({
    name: 'svc_websocket_connections',
    help: 'Websocket connections open on this instance.',
    registers: [this.registry],
  });
  readonly messages = new Counter({
    name: 'svc_messages_total',
    help: 'Attempts at sending consumer messages (payment links) by channel and outcome (sent, retrying, failed).',
    labelNames: ['channel', 'outcome'] as const,
    registers: [this.registry],
  });
  #sources: ScrapeSources | null = null;
  #processMetrics = false;

  constructor() {
    const sources = () => this.#sources;
    new Gauge({
      name: 'svc_database_up',
      help: '1 while this instance reaches its database, 0 during an outage.',
      registers: [this.registry],
      collect() {
        const source = sources();
        if (source) this.set(source.databaseUp() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'svc_db_pool_connections',
      help: "This instance's database pool connections by state (as PostgreSQL sees them).",
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        const source = sources();
        if (!source) return;
        this.reset();
        for (const [state, count] of Object.entries(await source.poolConnections().catch(() => ({})))) this.set({ state }, count);
      },
    });
    new Gauge({
      name: 'svc_callback_backlog',
      help: 'Callback deliveries pending (waiting for their next attempt), across every instance.',
      registers: [this.registry],
      async collect() {
        const source = sources();
        if (source) this.set(await source.callbackBacklog().catch(() => NaN));
      },
    });
    new Gauge({
      name: 'svc_database_replica_lag_seconds',
      help: 'How far the read replica (DATABASE_READ_URL) replays behind the primary, in seconds (NaN when it does not answer); absent without one.',
      registers: [this.registry],
      async collect() {
        const lag = sources()?.replicaLagSeconds;
        if (lag) this.set((await lag().catch(() => null)) ?? NaN);
      },
    });
    new Gauge({
      name: 'svc_processor_requests',
      help: 'Processor requests not finished, by state (in_flight, needs_review), across every instance.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        const source = sources();
        if (!source) return;
        const counts = await source.processorRequests().catch(() => ({ in_flight: NaN, needs_review: NaN }));
        for (const [state, count] of Object.entries(counts)) this.set({ state }, count);
      },
    });
  }

  /** The Node.js process series (CPU, memory, event-loop lag, GC): started with the metrics server, not before. */
  collectProcessMetrics(): void {
    if (this.#processMetrics) return;
    this.#processMetrics = true;
    collectDefaultMetrics({ register: this.registry });
  }

  /** Where the scrape reads the figures it does not keep itself (main.ts, once the database is open). */
  readFrom(sources: ScrapeSources): void {
    this.#sources = sources;
  }
}

/**
 * The process's metrics: one set, as the process metrics are one set. Code that changes a figure updates it here;
 * the series are served only when METRICS_PORT is set.
 */
export const metrics = new ServiceMetrics();
