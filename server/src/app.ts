import express, { type Express } from 'express';
import type { AppDeps, AppDepsInput } from './app-deps';
import { checkConnection } from './db/client';
import { accessLog } from './http/access-log';
import { clientAddress, proxyTrust } from './http/client-address';
import { CredentialCache } from './http/credential-cache';
import { jsonBody } from './http/json-body';
import { providerOutbox } from './messages/provider-outbox';
import { noSniff } from './http/no-sniff';
import { databaseGate } from './http/database-gate';
import { DatabaseHealth } from './db/database-health';
import { notFoundHandler, problemHandler } from './http/problem';
import { RateLimiter } from './http/rate-limit';
import { requestId } from './http/request-id';
import { endpointRouter, type EndpointRoute } from './http/endpoint-router';
import { docsRouter } from './modules/docs/docs.routes';
import { databaseAnswers, healthRoutes, migrationsApplied, probeRoutes } from './modules/health';
import { ReadinessChecks } from './readiness';
import { httpMetrics, metrics } from './metrics';
import { requestSpans } from './tracing';
import { authorizationsRoutes } from './modules/authorizations/authorizations.routes';
import { callbacksRoutes } from './modules/callbacks/callbacks.routes';
import { webhookEndpointsRoutes } from './modules/webhook-endpoints/webhook-endpoints.routes';
import { eventsRoutes } from './modules/events/events.routes';
import { commitsRoutes } from './modules/commits/commits.routes';
import { sdkAssetsRouter } from './modules/sdk-assets/sdk-assets.routes';
import { sdkSessionsRoutes } from './modules/sdk-sessions/sdk-sessions.routes';
import { hostedPageRoutes } from './modules/hosted-page/hosted-page.routes';
import { merchantSettingsRoutes } from './modules/merchant-settings/merchant-settings.routes';
import { receiptsRoutes } from './modules/receipts/receipts.routes';
import { paymentPageRoutes } from './modules/hosted-page/payment-page.routes';
import { consumerAssetsRouter } from './modules/consumer-pages/consumer-assets.routes';
import { authenticationPageRedirect, authenticationRoutes } from './modules/authentication-flow';
import { bankPageRoutes } from './modules/sandbox/bank-page.routes';
import { stickersRoutes } from './modules/stickers/stickers.routes';
import { SandboxMessageOutbox } from './modules/sandbox/sandbox-outbox';
import { sandboxRoutes } from './modules/sandbox/sandbox.routes';
import { terminalRoutes } from './modules/sandbox/terminal.routes';
import { transactionsRoutes } from './modules/transactions/transactions.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { credentialsRoutes } from './modules/credentials/credentials.routes';
import { paymentMethodsRoutes } from './modules/payment-methods/payment-methods.routes';
import { processorAccountsRoutes } from './modules/processor-accounts';
import { refundsRoutes } from './modules/refunds/refunds.routes';
import { adyenWebhooksRouter, stripeWebhooksRouter } from './modules/processor-webhooks';
import { PROCESSOR_OPERATIONS } from './processor-operations';

/** Wiring only: middleware in order, then the routers, then the one error handler. */
export function createApp(input: AppDepsInput): Express {
  if (input.env.SVC_MODE === 'production' && input.testClock) throw new Error('the sandbox test clock cannot be wired in production mode');
  const deps: AppDeps = {
    ...input,
    readDb: input.readDb ?? input.db,
    limiter: input.limiter ?? new RateLimiter(input.env.RATE_LIMIT_PER_S, input.env.RATE_LIMIT_BURST),
    credentials: input.credentials ?? new CredentialCache(input.env.CREDENTIAL_CACHE_S * 1000),
    // Production queues for the providers the environment names (main.ts starts their sender), or refuses the channel; the sandbox only records.
    messages: input.messages ?? (input.env.SVC_MODE === 'production' ? providerOutbox(input.env) : new SandboxMessageOutbox()),
    databaseHealth: input.databaseHealth ?? new DatabaseHealth(() => checkConnection(input.sql), input.logger),
    readiness: input.readiness ?? new ReadinessChecks().add('database', databaseAnswers(input.sql)).add('migrations', migrationsApplied(input.sql)),
  };
  const app = express();
  app.disable('x-powered-by');
  // The client's address (`req.ip`, which every per-address limit counts) is clientAddress's, the websocket
  // upgrade's too; Express takes the same trust for the protocol and host a proxy forwards.
  const trust = proxyTrust(deps.env.TRUST_PROXY);
  app.set('trust proxy', trust);
  Object.defineProperty(app.request, 'ip', {
    configurable: true,
    get(this: express.Request) {
      return clientAddress(this, trust);
    },
  });
  app.set('json spaces', 0);
  // No ETag from express: it would hash every API answer for one. The GETs a client revalidates set their own
  // (http/etag.ts: docs, the SDK manifest and files, the consumer pages' assets, a link's QR code).
  app.set('etag', false);
  app.use(requestId);
  // Counted and timed only when the metrics are served (METRICS_PORT); a span per request only when tracing is on.
  if (deps.env.METRICS_PORT !== undefined) app.use(httpMetrics(metrics));
  if (deps.env.OTEL_EXPORTER_OTLP_ENDPOINT) app.use(requestSpans);
  app.use(noSniff);
  app.use(accessLog(deps.logger));
  app.use(docsRouter(deps));
  // Liveness and readiness answer whatever the database does: ahead of the gate.
  app.use(endpointRouter(deps, probeRoutes(deps)));
  app.use(databaseGate(deps.databaseHealth));
  app.use(endpointRouter(deps, healthRoutes(deps)));
  // Processors' webhooks are verified over their raw bodies, so they come before the JSON parser.
  app.use(stripeWebhooksRouter(deps));
  app.use(jsonBody);
  app.use(adyenWebhooksRouter({ ...deps, operations: PROCESSOR_OPERATIONS }));
  app.use(endpointRouter(deps, apiRoutes(deps)));
  app.use(consumerAssetsRouter(deps));
  app.use(sdkAssetsRouter(deps));
  app.use(notFoundHandler);
  app.use(problemHandler(deps.logger, deps.databaseHealth));
  return app;
}

/** Every endpoint of the protocol's table with its handler: the API, the consumer pages and, in sandbox, its tools. */
export function apiRoutes(deps: AppDeps): EndpointRoute[] {
  return [
    ...transactionsRoutes(deps),
    ...authorizationsRoutes(deps),
    ...refundsRoutes(deps),
    ...hostedPageRoutes(deps),
    ...paymentPageRoutes(deps),
    ...receiptsRoutes(deps),
    ...stickersRoutes(deps),
    ...callbacksRoutes(deps),
    ...webhookEndpointsRoutes(deps),
    ...eventsRoutes(deps),
    ...commitsRoutes(deps),
    ...sdkSessionsRoutes(deps),
    ...credentialsRoutes(deps),
    ...paymentMethodsRoutes(deps),
    ...processorAccountsRoutes(deps),
    ...auditRoutes(deps),
    ...merchantSettingsRoutes(deps),
    ...authenticationRoutes(deps),
    // The bank's page of a 3-D Secure payment: the sandbox's simulated bank, else the processor's own page.
    ...(deps.env.SVC_MODE === 'sandbox' ? bankPageRoutes(deps) : [authenticationPageRedirect(deps)]),
    ...(deps.env.SVC_MODE === 'sandbox' ? [...(deps.testClock ? sandboxRoutes(deps, deps.testClock) : []), ...terminalRoutes(deps)] : []),
  ];
}
