import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import { CATALOGUE, SHOP_CURRENCY } from './catalogue';
import { CallbackInbox } from './callback-inbox';
import type { DemoConfig } from './config';
import { sendError } from './demo-error';
import type { DemoDeps } from './deps';
import { LiveRelay } from './live-relay';
import { merchantService } from './merchant-service';
import { OrderBook } from './orders';
import { pageRoutes } from './pages';
import { backOfficeRoutes } from './routes/back-office.routes';
import { callbackRoutes } from './routes/callbacks.routes';
import { checkoutRoutes } from './routes/checkout.routes';
import { paymentRequestRoutes } from './routes/links.routes';

const PUBLIC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public');

export interface DemoStatus {
  service: { url: string; reachable: boolean; status: number | null };
  credentials: { loaded: boolean; file: string; merchantId: string | null };
  live: DemoDeps['live']['state'];
}

/**
 * The demo shop: static pages, and a backend that holds the merchant's secrets and talks to the payment service
 * over HTTP and its websocket only, as any merchant would. `live.start()` opens the websocket (main.ts does).
 */
export function createDemo(config: DemoConfig, fetchImpl: typeof fetch = fetch): { app: Express; deps: DemoDeps } {
  const service = merchantService(config, fetchImpl);
  const orders = new OrderBook();
  const live = new LiveRelay(
    config.SERVICE_URL,
    service,
    (transaction) => {
      const order = orders.byTransaction(transaction.TransactionNumber);
      if (order) orders.track(order, transaction);
    },
    () => void Promise.all(orders.open().map((order) => orders.refresh(order, service))),
  );
  const deps: DemoDeps = { config, fetchImpl, service, orders, inbox: new CallbackInbox(), live };
  const app = express();
  app.disable('x-powered-by');

  app.get('/api/status', async (_req, res) => {
    const merchant = await service.credentials.current();
    let status: number | null;
    try {
      status = (await fetchImpl(`${config.SERVICE_URL}/healthz`, { signal: AbortSignal.timeout(3000) })).status;
    } catch {
      status = null; // unreachable: the page says so
    }
    const body: DemoStatus = {
      service: { url: config.SERVICE_URL, reachable: status === 200, status },
      credentials: { loaded: merchant !== null, file: config.DEMO_CREDENTIALS_FILE, merchantId: merchant?.merchantId ?? null },
      live: live.state,
    };
    res.json(body);
  });
  app.get('/api/catalogue', (_req, res) => res.json({ currency: SHOP_CURRENCY, products: CATALOGUE }));

  app.use(checkoutRoutes(deps));
  app.use(backOfficeRoutes(deps));
  app.use(paymentRequestRoutes(deps));
  app.use(callbackRoutes(deps));
  app.use(pageRoutes());
  app.use(express.static(PUBLIC_DIR));
  app.use(((error, _req, res, _next) => sendError(res, error)) as express.ErrorRequestHandler);
  return { app, deps };
}

/** The shop's Express app alone (no websocket): what tests mount. */
export function createDemoApp(config: DemoConfig, fetchImpl: typeof fetch = fetch): Express {
  return createDemo(config, fetchImpl).app;
}
