import express, { type Express } from 'express';
import type { AppDeps, AppDepsInput } from './app-deps';
import { checkConnection } from './db/client';
import { accessLog } from './http/access-log';
import { CredentialCache } from './http/credential-cache';
import { jsonBody } from './http/json-body';
import { noSniff } from './http/no-sniff';
import { databaseGate } from './http/database-gate';
import { DatabaseHealth } from './db/database-health';
import { notFoundHandler, problemHandler } from './http/problem';
import { RateLimiter } from './http/rate-limit';
import { requestId } from './http/request-id';
import { docsRouter } from './modules/docs/docs.routes';
import { healthRouter } from './modules/health/health.routes';
import { authorizationsRouter } from './modules/authorizations/authorizations.routes';
import { callbacksRouter } from './modules/callbacks/callbacks.routes';
import { commitsRouter } from './modules/commits/commits.routes';
import { sdkAssetsRouter } from './modules/sdk-assets/sdk-assets.routes';
import { sdkSessionsRouter } from './modules/sdk-sessions/sdk-sessions.routes';
import { hostedPageRouter } from './modules/hosted-page/hosted-page.routes';
import { receiptsRouter } from './modules/receipts/receipts.routes';
import { paymentPageRouter } from './modules/hosted-page/payment-page.routes';
import { consumerAssetsRouter } from './modules/consumer-pages/consumer-assets.routes';
import { stickersRouter } from './modules/stickers/stickers.routes';
import { SandboxMessageOutbox } from './modules/sandbox/sandbox-outbox';
import { sandboxRouter } from './modules/sandbox/sandbox.routes';
import { terminalRouter } from './modules/sandbox/terminal.routes';
import { transactionsRouter } from './modules/transactions/transactions.routes';

/** Wiring only: middleware in order, then the routers, then the one error handler. */
export function createApp(input: AppDepsInput): Express {
  if (input.env.SVC_MODE === 'production' && input.testClock) throw new Error('the sandbox test clock cannot be wired in production mode');
  const deps: AppDeps = {
    ...input,
    limiter: input.limiter ?? new RateLimiter(input.env.RATE_LIMIT_PER_S, input.env.RATE_LIMIT_BURST),
    credentials: input.credentials ?? new CredentialCache(input.env.CREDENTIAL_CACHE_S * 1000),
    messages: input.messages ?? new SandboxMessageOutbox(),
    databaseHealth: input.databaseHealth ?? new DatabaseHealth(() => checkConnection(input.sql), input.logger),
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.env.TRUST_PROXY);
  app.set('json spaces', 0);
  // No ETag from express: it would hash every API answer for one. The GETs a client revalidates set their own
  // (http/etag.ts: docs, the SDK manifest and files, the consumer pages' assets, a link's QR code).
  app.set('etag', false);
  app.use(requestId);
  app.use(noSniff);
  app.use(accessLog(deps.logger));
  app.use(docsRouter(deps));
  app.use(databaseGate(deps.databaseHealth));
  app.use(healthRouter(deps));
  app.use(jsonBody);
  app.use(transactionsRouter(deps));
  app.use(authorizationsRouter(deps));
  app.use(hostedPageRouter(deps));
  app.use(paymentPageRouter(deps));
  app.use(receiptsRouter(deps));
  app.use(stickersRouter(deps));
  app.use(consumerAssetsRouter(deps));
  app.use(callbacksRouter(deps));
  app.use(commitsRouter(deps));
  app.use(sdkSessionsRouter(deps));
  app.use(sdkAssetsRouter(deps));
  if (deps.env.SVC_MODE === 'sandbox') {
    if (deps.testClock) app.use(sandboxRouter(deps, deps.testClock));
    app.use(terminalRouter(deps));
  }
  app.use(notFoundHandler);
  app.use(problemHandler(deps.logger, deps.databaseHealth));
  return app;
}
