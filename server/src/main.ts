import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import postgres from 'postgres';
import { createApp } from './app';
import { CredentialCache, forgetChangedCredentials } from './http/credential-cache';
import { RateLimiter } from './http/rate-limit';
import type { PaymentProcessor } from './processor/processor';
import { processorForMode, ProcessorConfigError } from './processor/processor-for-mode';
import { attachRealtime } from './realtime';
import { systemClock, type Clock, type TestClock } from './clock';
import { DatabaseHealth } from './db/database-health';
import { replicaLagSeconds } from './db/replica-lag';
import { ResilientListener } from './db/resilient-listener';
import { openStorage } from './db/storage';
import { configurationWarnings, EnvError, loadEnv, type Env } from './env';
import { limitHeapGrowth } from './heap-growth';
import { createLogger, type Logger } from './logger';
import { CALLBACKS_WAKE_CHANNEL } from './modules/callbacks/callbacks.queries';
import { createCallbackDispatcher } from './modules/callbacks/dispatcher';
import { startExpiryWorker } from './modules/expiry';
import { databaseAnswers, migrationsApplied, replicaReplays } from './modules/health';
import { ReadinessChecks } from './readiness';
import { metrics, startMetricsServer } from './metrics';
import { countCallbackBacklog, countPoolConnections, countUnfinishedProcessorRequests } from './metrics/scrape-sources.queries';
import { instrumentedProcessor } from './processor/instrumented-processor';
import { connectorReadiness } from './processor/connector-readiness';
import { forgetChangedProcessorAccounts, MerchantProcessors, ProcessorAccountCache } from './modules/processor-accounts';
import { createMessageSender, type MessageSender } from './messages/message-sender';
import { MESSAGES_WAKE_CHANNEL } from './messages/messages.queries';
import { providerSenders } from './messages/provider-outbox';
import { currentTraceId, startTracing, traceTransactions, type Tracing } from './tracing';
import { recordPublicBaseUrl } from './modules/merchants';
import { PROCESSOR_OPERATIONS } from './processor-operations';
import { startProcessorRequestWorker } from './modules/processor-requests';
import { sessionTokenResolver } from './modules/sdk-sessions';
import { recordSmsOutcome } from './modules/transactions';
import { bootstrapSandbox, demoShopOrigins } from './modules/sandbox/sandbox-bootstrap';
import { SANDBOX_CLOCK_CHANNEL, SandboxClock } from './modules/sandbox/sandbox-clock';
import { publishCommittedEvents } from './db/after-commit';
import { openUpdateBus, OutboxPublisher, startPublicationSweep } from './update-bus';

/** The message `pnpm start` (scripts/start.mjs) waits for before it starts the demo shop. */
interface ServiceReadyMessage {
  type: 'svc:ready';
  url: string;
  sandboxCredentialsFile: string | null;
}

async function main(): Promise<void> {
  let env: Env;
  let processor: PaymentProcessor;
  try {
    env = loadEnv();
    // Before anything starts: production never runs on the sandbox processor. Every call is counted (and traced).
    processor = instrumentedProcessor(processorForMode(env), metrics);
  } catch (error) {
    if (error instanceof EnvError || error instanceof ProcessorConfigError) {
      process.stderr.write(`svc: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // Before the heap grows: a busy instance keeps about 100 MB less than V8 would let it (HEAP_GROWTH_PERCENT).
  limitHeapGrowth(env.HEAP_GROWTH_PERCENT);
  // OpenTelemetry is loaded only when a collector is named; each log line then carries the trace id of its span.
  const tracing: Tracing | null = env.OTEL_EXPORTER_OTLP_ENDPOINT ? await startTracing(env.OTEL_EXPORTER_OTLP_ENDPOINT) : null;
  const logger = createLogger({ level: env.LOG_LEVEL, ...(tracing ? { traceId: currentTraceId } : {}) });
  for (const warning of configurationWarnings(env)) logger.warn(warning);
  const storage = await openStorage(env, logger).catch((error: Error) => fail(logger, error));
  if (tracing) traceTransactions(storage.db);
  // Every LISTEN of this instance (test clock, events, callback wake-ups, credential changes) on a connection of its
  // own that starts over when it stops hearing itself, as after a database restart.
  // DATABASE_LISTEN_URL: a session connection for LISTEN when DATABASE_URL is a transaction-pooling PgBouncer.
  const listenUrl = env.DATABASE_LISTEN_URL ?? storage.url;
  const notifications = new ResilientListener(() => postgres(listenUrl, { max: 1, connect_timeout: 10, onnotice: () => undefined }), logger);
  await notifications.start();

  // The CLI, sharing this database, prints links on the base URL this service answers on.
  await recordPublicBaseUrl(storage.db, env.PUBLIC_BASE_URL, systemClock.now()).catch((error: Error) => fail(logger, error));

  let clock: Clock = systemClock;
  let testClock: TestClock | undefined;
  let dispatcher: ReturnType<typeof createCallbackDispatcher> | undefined;
  /** This service's demo merchant credentials (sandbox): `sandbox-credentials.json`, or its own file beside another database's. */
  let sandboxCredentialsFile: string | null = null;
  if (env.SVC_MODE === 'sandbox') {
    const sandboxClock = new SandboxClock(storage.db);
    await sandboxClock.refresh();
    // Another instance moved the test clock: follow at once (the expiry worker also refreshes every tick), and
    // let the dispatcher look for retries that are now due.
    await notifications.listen(
      SANDBOX_CLOCK_CHANNEL,
      () =>
        void sandboxClock
          .refresh()
          .then(() => dispatcher?.wake())
          .catch((error: Error) => logger.warn({ err: error }, 'clock refresh failed')),
    );
    clock = testClock = sandboxClock;
    const embeddedDataDir = storage.embedded ? path.join(env.DATA_DIR, 'postgres') : null;
    const bootstrapped = await bootstrapSandbox(storage.db, {
      dataDir: env.DATA_DIR,
      clock,
      logger,
      embeddedDataDir,
      publicBaseUrl: env.PUBLIC_BASE_URL,
      demoOrigins: demoShopOrigins(env.DEMO_PORT),
    }).catch((error: Error) => fail(logger, error));
    sandboxCredentialsFile = bootstrapped.path;
  }

  // One limiter for HTTP and websocket upgrades: a credential's budget is the same whichever way it calls.
  const limiter = new RateLimiter(env.RATE_LIMIT_PER_S, env.RATE_LIMIT_BURST);
  // Live credentials stay in memory for CREDENTIAL_CACHE_S; a changed one (revoked by any instance, or by hand in
  // SQL) is announced by a trigger and forgotten here at once.
  const credentials = new CredentialCache(env.CREDENTIAL_CACHE_S * 1000);
  await forgetChangedCredentials(notifications, credentials);
  // One processor for the requests and the expiry sweeps (they release holds at it too): `processor`, chosen above.
  // A lost database is an outage, not a crash: requests answer 503 database_unavailable while a probe finds it gone,
  // and service resumes when the probe finds it back.
  const databaseHealth = new DatabaseHealth(storage.probe, logger);
  // GET /readyz: the database, its migrations, the LISTEN connection, and a heartbeat per background worker.
  const staleAfterMs = env.READINESS_WORKER_STALE_S * 1000;
  // The update bus REALTIME_BUS names: every committed change is published on it, after its commit, from the realtime
  // outbox; the sweep publishes what an instance left behind (docs/scaling.md#updates-between-instances).
  const bus = await openUpdateBus(env, {
    db: storage.db,
    listener: notifications,
    logger,
    name: storage.applicationName,
    listenerStatus: () => notifications.status(),
  }).catch((error: Error) => fail(logger, error));
  const publisher = new OutboxPublisher(storage.db, bus, logger);
  const stopPublishing = publishCommittedEvents(storage.db, publisher);
  const readiness = new ReadinessChecks()
    .add('database', databaseAnswers(storage.sql))
    .add('migrations', migrationsApplied(storage.sql))
    .add('listener', () => notifications.status());
  if (bus.kind !== 'postgres') readiness.add('bus', () => bus.status());
  // Reported, not required: without its replica an instance still takes payments.
  if (storage.replica) readiness.add('replica', replicaReplays(storage.replica.sql), { required: false });
  // Reported, not required: when the default account's acquirer last answered.
  readiness.add(`processor_${processor.kind}`, connectorReadiness(processor), { required: false });
  const heartbeats = {
    callbacks: readiness.heartbeat('callback_dispatcher', staleAfterMs),
    expiry: readiness.heartbeat('expiry_sweeps', staleAfterMs),
    processorRequests: readiness.heartbeat('processor_request_worker', staleAfterMs),
    publications: readiness.heartbeat('publication_sweep', staleAfterMs),
  };
  // Each merchant's processor: its own account where it connected one, else the default (every call counted too).
  // Its account, or its having none, stays in memory for PROCESSOR_ACCOUNT_CACHE_S; a changed one (by any instance,
  // the CLI or by hand in SQL) is announced by a trigger and forgotten here at once.
  const processorAccounts = new ProcessorAccountCache(env.PROCESSOR_ACCOUNT_CACHE_S * 1000);
  await forgetChangedProcessorAccounts(notifications, processorAccounts);
  const processors = new MerchantProcessors({
    db: storage.db,
    env,
    defaultProcessor: processor,
    wrap: (own) => instrumentedProcessor(own, metrics),
    accounts: processorAccounts,
  });
  const app = createApp({
    readiness,
    env,
    db: storage.db,
    ...(storage.replica ? { readDb: storage.replica.db } : {}),
    sql: storage.sql,
    logger,
    clock,
    ...(testClock ? { testClock } : {}),
    limiter,
    credentials,
    processor,
    processors,
    databaseHealth,
  });
  const expiryWorker = startExpiryWorker({
    db: storage.db,
    processor,
    processors,
    clock,
    env,
    baseUrl: env.PUBLIC_BASE_URL,
    logger,
    onTick: heartbeats.expiry.beat,
  });
  // Processor requests a crash or a restart left in flight (called, outcome not recorded): finished now and as their leases end.
  const processorRequests = startProcessorRequestWorker({
    db: storage.db,
    processor,
    processors,
    clock,
    logger,
    env,
    operations: PROCESSOR_OPERATIONS,
    onTick: heartbeats.processorRequests.beat,
  });
  const callbacks = createCallbackDispatcher({ db: storage.db, clock, env, logger, onTick: heartbeats.callbacks.beat });
  dispatcher = callbacks;
  callbacks.start();
  // A queued callback, a redelivery, or a moved test clock: look for due deliveries now rather than at the next poll.
  const callbackWakes = await bus.subscribe({
    onNotice: (notice) => {
      if (notice.callback) callbacks.wake();
    },
    onGap: () => callbacks.wake(),
  });
  const publicationSweep = startPublicationSweep({ db: storage.db, bus, logger, onTick: heartbeats.publications.beat });
  await notifications.listen(CALLBACKS_WAKE_CHANNEL, () => callbacks.wake());
  // Production: the link messages init queued go to their providers, retried by MESSAGE_RETRY_SCHEDULE_S.
  const senders = providerSenders(env);
  let messageSender: MessageSender | null = null;
  if (env.SVC_MODE === 'production' && Object.keys(senders).length > 0) {
    const onTick = readiness.heartbeat('message_sender', staleAfterMs).beat;
    const sender = createMessageSender({ db: storage.db, clock, env, logger, senders, smsOutcome: recordSmsOutcome, onTick });
    sender.start();
    messageSender = sender;
    await notifications.listen(MESSAGES_WAKE_CHANNEL, () => sender.wake());
  }
  let stopping = false;
  // While stopping, a connection ends with the response it carries, so the HTTP server closes as soon as the
  // requests in flight are answered rather than wait for keep-alive connections to time out. Marked before the app
  // sees the request: the app may answer at once (a 503 while the database is down, /livez), and a header set after
  // that throws, which would end the process (exit 1) in the middle of stopping. A connection opened before the
  // signal but with no request yet is not idle to the server, so such a request does come while stopping.
  const responses = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    if (stopping) res.setHeader('Connection', 'close');
    responses.add(res);
    res.once('close', () => {
      responses.delete(res);
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
    app(req, res);
  });
  server.keepAliveTimeout = 65_000;
  const realtime = await attachRealtime(server, {
    env,
    db: storage.db,
    sql: storage.sql,
    listener: notifications,
    bus,
    logger,
    limiter,
    clock,
    resolveSessionToken: sessionTokenResolver(clock),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(env.PORT, env.HOST, resolve);
  }).catch((error: Error) => fail(logger, new Error(`cannot listen on ${env.HOST}:${env.PORT}: ${error.message}`)));
  logger.info({ url: env.PUBLIC_BASE_URL, host: env.HOST, port: env.PORT, mode: env.SVC_MODE }, `listening on ${env.PUBLIC_BASE_URL}`);
  // GET /metrics on a listener of its own, never the public port.
  metrics.readFrom({
    databaseUp: () => !databaseHealth.down,
    poolConnections: () => countPoolConnections(storage.db, storage.applicationName),
    callbackBacklog: () => countCallbackBacklog(storage.db),
    processorRequests: () => countUnfinishedProcessorRequests(storage.db),
    ...(storage.replica ? { replicaLagSeconds: () => replicaLagSeconds(storage.replica!.sql) } : {}),
  });
  const metricsServer =
    env.METRICS_PORT === undefined
      ? null
      : await startMetricsServer(metrics, { host: env.METRICS_HOST, port: env.METRICS_PORT, logger, readiness }).catch((error: Error) =>
          fail(logger, new Error(`cannot listen for metrics on ${env.METRICS_HOST}:${env.METRICS_PORT}: ${error.message}`)),
        );
  if (metricsServer) {
    const address = metricsServer.address() as AddressInfo;
    logger.info({ host: env.METRICS_HOST, port: address.port }, `metrics on http://${env.METRICS_HOST}:${address.port}/metrics`);
  }
  // Started by `pnpm start` (with a message channel): tell it where this service answers and which credentials file is
  // its own, so the demo shop it starts next reads exactly those, whatever DATA_DIR or database this service has.
  process.send?.({ type: 'svc:ready', url: env.PUBLIC_BASE_URL, sandboxCredentialsFile } satisfies ServiceReadyMessage);
  process.channel?.unref();

  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: forcing exit');
      storage.embedded?.kill();
      logger.flush();
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal, graceMs: env.SHUTDOWN_GRACE_MS }, 'shutting down: no new connections, finishing work in flight');
    // A hard deadline, whatever the database does: past it, work in flight is abandoned and the process exits 1. Nothing
    // is lost: a request not answered is not committed (or replays under its Idempotency-Key), and a claimed callback
    // or processor outbox row is claimable again when its lease ends.
    const deadline = setTimeout(() => {
      logger.warn({ graceMs: env.SHUTDOWN_GRACE_MS }, 'grace period over: abandoning work in flight and exiting');
      server.closeAllConnections();
      storage.embedded?.kill();
      logger.flush();
      process.exit(1);
    }, env.SHUTDOWN_GRACE_MS);
    databaseHealth.stop();
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    // Upgraded websockets are not the HTTP server's any more: close them (1001) alongside.
    const realtimeClosed = realtime.close().catch((error: Error) => logger.warn({ err: error }, 'closing websockets failed'));
    server.close(async () => {
      let code = 0;
      try {
        await realtimeClosed;
        await expiryWorker.stop();
        await processorRequests.stop();
        await callbacks.stop();
        await callbackWakes.unsubscribe();
        await messageSender?.stop();
        await publicationSweep.stop();
        stopPublishing();
        await publisher.stop();
        await bus.close();
        await notifications.stop();
        await storage.close();
        await tracing?.stop();
        logger.info('stopped');
      } catch (error) {
        logger.error({ err: error }, 'error while closing the database');
        code = 1;
      }
      clearTimeout(deadline);
      logger.flush();
      process.exit(code);
    });
    for (const res of responses) if (!res.headersSent) res.setHeader('Connection', 'close');
    server.closeIdleConnections();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

function fail(logger: Logger, error: Error): never {
  logger.fatal(error.message);
  logger.flush();
  process.exit(1);
}

await main();
