import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CurrencySchema, ServiceApiError, createMerchantClient, verifyCallback, type Transaction } from '@svc/protocol';
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

const CommitBody = z.object({ transactionNumber: z.string().min(1).max(64), amount: z.number().int().positive(), currency: CurrencySchema });
const CaptureBody = z.object({ token: z.string().min(1).max(200), amount: z.number().int().positive() });

/**
 * The demo shop: static pages, and a backend that holds the merchant's secrets and talks to the payment service
 * over HTTP only, as any merchant would.
 */
export function createDemoApp(config: DemoConfig, fetchImpl: typeof fetch = fetch): Express {
  const credentials = new CredentialsStore(config.DEMO_CREDENTIALS_FILE);
  const callbacks: ReceivedCallback[] = [];
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

  // Only what a browser may know: the public client ID and where the SDK lives.
  app.get('/api/config', async (_req, res) => {
    const { merchant } = await service();
    res.json({ clientId: merchant.clientId, serviceUrl: config.SERVICE_URL, sdkUrl: `${config.SERVICE_URL}/sdk/elements/1.1.1/sdk.js` });
  });

  app.post('/api/checkout/commit', express.json(), async (req, res) => {
    const body = CommitBody.parse(req.body);
    const { client } = await service();
    // Later updates of this payment (captures, voids) come back to this shop as signed callbacks.
    const callbackURL = `${config.DEMO_PUBLIC_URL}/api/service-callbacks`;
    res.json(await client.commit(body.transactionNumber, { amount: body.amount, currency: body.currency, callbackURL }));
  });

  app.post('/api/checkout/capture', express.json(), async (req, res) => {
    const body = CaptureBody.parse(req.body);
    const { client } = await service();
    res.json(await client.pay(body));
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
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

function sendError(res: Response, error: unknown): void {
  if (error instanceof ServiceApiError) {
    res.status(error.status).json({ code: error.code, message: error.problem?.detail ?? error.message });
  } else if (error instanceof z.ZodError) {
    res.status(400).json({ code: 'validation_failed', message: error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
  } else if (error instanceof DemoError) {
    res.status(error.status).json({ code: 'not_ready', message: error.message });
  } else {
    res.status(500).json({ code: 'internal_error', message: 'The demo backend failed.' });
  }
}
