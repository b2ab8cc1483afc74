import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SDK_VERSIONS, ServiceApiError, createMerchantClient, verifyCallback, type Currency, type Transaction } from '@svc/protocol';
import express, { type Express, type Response } from 'express';
import { z } from 'zod';
import type { DemoConfig } from './config';
import { CredentialsStore } from './credentials';

const PUBLIC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public');

export interface DemoStatus {
  service: { url: string; reachable: boolean; status: number | null };
  credentials: { loaded: boolean; file: string; merchantId: string | null };
}

export interface ReceivedCallback {
  at: string;
  verified: boolean;
  transactionNumber: string | null;
  status: number | null;
  statusName: string | null;
}

/** What the checkout page sells (checkout.html shows it). The shop's backend decides the amount, never the browser. */
export const DEMO_CART = { description: 'Ceramic mug × 2', amount: 2500, currency: 'USD' } as const satisfies { description: string; amount: number; currency: Currency };

/**
 * One checkout of the demo cart. The payment token stays here, on the shop's server: the browser only ever sees the
 * order id and the outcome.
 */
interface Order {
  orderId: string;
  amount: number;
  currency: Currency;
  /** A commit (or capture) is running: a second one is refused, so one order is never paid twice. */
  busy: boolean;
  transactionNumber: string | null;
  status: number | null;
  statusName: string | null;
  /** From the commit's paymentDetails; an authorization token is what a capture spends. */
  token: { type: 'authorization' | 'token'; value: string } | null;
  /** What is still authorized and not captured, cents (the service's `authorization.availableCents`). */
  capturable: number;
}

/** What the checkout page gets about its order. */
export interface OrderView {
  orderId: string;
  transactionNumber: string | null;
  status: number | null;
  statusName: string | null;
  amount: number;
  currency: Currency;
}

const MAX_ORDERS = 1000;
const OrderId = z.string().regex(/^ord_[0-9a-f-]{36}$/, 'is not an order id of this shop');
const CommitBody = z.object({ orderId: OrderId, transactionNumber: z.string().min(1).max(64) });
const CaptureBody = z.object({ orderId: OrderId, amount: z.number().int().positive().optional() });
const SDK_PATH = `/sdk/elements/${SDK_VERSIONS.elements}/sdk.js`;
const ManifestSchema = z.object({ files: z.record(z.string(), z.object({ url: z.string(), integrity: z.string().regex(/^sha384-[A-Za-z0-9+/]+={0,2}$/) })) });

/**
 * The demo shop: static pages, and a backend that holds the merchant's secrets and talks to the payment service
 * over HTTP only, as any merchant would.
 */
export function createDemoApp(config: DemoConfig, fetchImpl: typeof fetch = fetch): Express {
  const credentials = new CredentialsStore(config.DEMO_CREDENTIALS_FILE);
  const callbacks: ReceivedCallback[] = [];
  // The demo's order book: in memory, only the orders this process created, the oldest forgotten past MAX_ORDERS.
  // A real shop keeps its orders in its database.
  const orders = new Map<string, Order>();
  const app = express();
  app.disable('x-powered-by');

  const service = async () => {
    const merchant = await credentials.current();
    if (!merchant) throw new DemoError(503, `No merchant credentials yet: waiting for ${config.DEMO_CREDENTIALS_FILE}.`);
    return { merchant, client: createMerchantClient({ baseUrl: config.SERVICE_URL, apiKey: merchant.apiKey, fetch: fetchImpl }) };
  };

  app.get('/api/status', async (_req, res) => {
    const merchant = await credentials.current();
    let status: number | null = null;
    try {
      status = (await fetchImpl(`${config.SERVICE_URL}/healthz`, { signal: AbortSignal.timeout(3000) })).status;
    } catch {
      status = null;
    }
    const body: DemoStatus = {
      service: { url: config.SERVICE_URL, reachable: status === 200, status },
      credentials: { loaded: merchant !== null, file: config.DEMO_CREDENTIALS_FILE, merchantId: merchant?.merchantId ?? null },
    };
    res.json(body);
  });

  /**
   * The SRI hash of sdk.js, from the service's manifest, so the page loads the script with `integrity`. A real shop
   * would pin the hash of the SDK version it tested instead of reading it at run time.
   */
  const sdkIntegrity = async (): Promise<string> => {
    let manifest: z.infer<typeof ManifestSchema>;
    try {
      const res = await fetchImpl(`${config.SERVICE_URL}/sdk/manifest.json`, { signal: AbortSignal.timeout(3000) });
      manifest = ManifestSchema.parse(await res.json());
    } catch {
      throw new DemoError(503, 'The payment service does not answer with its SDK manifest (/sdk/manifest.json).');
    }
    const entry = Object.values(manifest.files).find((file) => file.url.endsWith(SDK_PATH));
    if (!entry) throw new DemoError(503, `The payment service lists no ${SDK_PATH} in its manifest: is the SDK built?`);
    return entry.integrity;
  };

  // Only what a browser may know: the public client ID, where the SDK lives and its SRI hash.
  app.get('/api/config', async (_req, res) => {
    const { merchant } = await service();
    res.json({ clientId: merchant.clientId, serviceUrl: config.SERVICE_URL, sdkUrl: `${config.SERVICE_URL}${SDK_PATH}`, sdkIntegrity: await sdkIntegrity() });
  });

  const view = (order: Order): OrderView => ({
    orderId: order.orderId,
    transactionNumber: order.transactionNumber,
    status: order.status,
    statusName: order.statusName,
    amount: order.amount,
    currency: order.currency,
  });
  const orderOf = (orderId: string): Order => {
    const order = orders.get(orderId);
    if (!order) throw new DemoError(404, `No order ${orderId} in this shop.`, 'order_not_found');
    if (order.busy) throw new DemoError(409, 'This order is being paid or captured right now.', 'order_busy');
    return order;
  };
  const track = (order: Order, transaction: Transaction): void => {
    order.status = transaction.status;
    order.statusName = transaction.statusName;
    order.capturable = transaction.authorization?.status === 'active' ? transaction.authorization.availableCents : 0;
  };

  // The customer starts a checkout of the demo cart; its amount is the shop's, whatever the page says.
  app.post('/api/checkout/order', (_req, res) => {
    const order: Order = { orderId: `ord_${randomUUID()}`, ...DEMO_CART, busy: false, transactionNumber: null, status: null, statusName: null, token: null, capturable: 0 };
    orders.set(order.orderId, order);
    if (orders.size > MAX_ORDERS) orders.delete(orders.keys().next().value!);
    res.status(201).json(view(order));
  });

  // The widget accepted a payment (status 10): commit the order's amount with the API key and keep the token here.
  app.post('/api/checkout/commit', express.json(), async (req, res) => {
    const body = CommitBody.parse(req.body);
    const order = orderOf(body.orderId);
    if (order.transactionNumber !== null) throw new DemoError(409, `Order ${order.orderId} is already paid (${order.transactionNumber}).`, 'order_already_paid');
    // Later updates of this payment (captures, voids) come back to this shop as signed callbacks.
    const callbackURL = `${config.DEMO_PUBLIC_URL}/api/service-callbacks`;
    order.busy = true;
    try {
      const { client } = await service();
      const committed = await client.commit(body.transactionNumber, { amount: order.amount, currency: order.currency, callbackURL });
      order.transactionNumber = committed.transactionNumber;
      order.token = committed.paymentDetails ? { type: committed.paymentDetails.type, value: committed.paymentDetails.token } : null;
      track(order, committed.transaction);
    } finally {
      order.busy = false;
    }
    res.json(view(order));
  });

  // Captures what the order's authorization still holds (or `amount` of it). In a real shop this is a back-office
  // action (e.g. when the order ships), not a button on the customer's page.
  app.post('/api/checkout/capture', express.json(), async (req, res) => {
    const body = CaptureBody.parse(req.body);
    const order = orderOf(body.orderId);
    if (order.token?.type !== 'authorization' || order.capturable === 0) {
      throw new DemoError(409, `Order ${order.orderId} has no authorization left to capture.`, 'nothing_to_capture');
    }
    const amount = body.amount ?? order.capturable;
    if (amount > order.capturable) throw new DemoError(409, `At most ${order.capturable} cents of order ${order.orderId} can be captured.`, 'amount_exceeds_authorized');
    order.busy = true;
    try {
      const { client } = await service();
      track(order, (await client.pay({ token: order.token.value, amount })).transaction);
    } finally {
      order.busy = false;
    }
    res.json({ ...view(order), captured: amount });
  });

  // The merchant's callback endpoint: verified on the raw body, as the README shows.
  app.all('/api/service-callbacks', express.raw({ type: () => true, limit: '256kb' }), async (req, res) => {
    const { merchant } = await service();
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const verified = await verifyCallback(merchant.hmacSecret, (name) => req.get(name), new Uint8Array(raw));
    let transaction: Partial<Transaction> = {};
    if (raw.length > 0) {
      try {
        transaction = JSON.parse(raw.toString('utf8')) as Transaction;
      } catch {
        transaction = {};
      }
    }
    callbacks.unshift({
      at: new Date().toISOString(),
      verified,
      transactionNumber: transaction.TransactionNumber ?? (typeof req.query.TransactionNumber === 'string' ? req.query.TransactionNumber : null),
      status: transaction.status ?? null,
      statusName: transaction.statusName ?? null,
    });
    callbacks.length = Math.min(callbacks.length, 50);
    res.status(verified ? 204 : 401).end();
  });
  app.get('/api/callbacks', (_req, res) => res.json({ callbacks }));

  app.use(express.static(PUBLIC_DIR, { extensions: ['html'] }));
  app.use(((error, _req, res, _next) => sendError(res, error)) as express.ErrorRequestHandler);
  return app;
}

class DemoError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = 'not_ready',
  ) {
    super(message);
  }
}

function sendError(res: Response, error: unknown): void {
  if (error instanceof ServiceApiError) {
    res.status(error.status).json({ code: error.code, message: error.problem?.detail ?? error.message });
  } else if (error instanceof z.ZodError) {
    res.status(400).json({ code: 'validation_failed', message: error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
  } else if (error instanceof DemoError) {
    res.status(error.status).json({ code: error.code, message: error.message });
  } else {
    res.status(500).json({ code: 'internal_error', message: 'The demo backend failed.' });
  }
}
