import { verifyCallback, type Transaction } from '@svc/protocol';
import express, { Router } from 'express';
import { z } from 'zod';
import type { DemoDeps } from '../deps';

const HEARTBEAT_MS = 15_000;

/**
 * The shop's callback endpoint (verified on the raw body, as docs/integrating.md#verifying-a-callback shows), the list of what arrived,
 * the back office's switch that makes the endpoint refuse (to watch retries), and the live stream the pages follow.
 */
export function callbackRoutes({ service, orders, inbox, live }: DemoDeps): Router {
  const router = Router();

  router.all('/api/service-callbacks', express.raw({ type: () => true, limit: '256kb' }), async (req, res) => {
    const { merchant } = await service.connect();
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const verified = await verifyCallback(merchant.hmacSecret, (name) => req.get(name), new Uint8Array(raw));
    let body: Partial<Transaction> = {};
    if (verified && raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8')) as Transaction;
      } catch {
        body = {}; // a GET-style callback, or a body that is not JSON: the query names the transaction
      }
    }
    const queryTransactionNumber = typeof req.query.TransactionNumber === 'string' ? req.query.TransactionNumber : null;
    const received = inbox.record({ verified, eventId: req.get('webhook-id') ?? null, body, queryTransactionNumber });
    if (verified && received.answeredStatus === 204 && body.TransactionNumber) {
      const order = orders.byTransaction(body.TransactionNumber);
      if (order && body.sequence !== undefined) orders.track(order, body as Transaction);
    }
    res.status(received.answeredStatus).end();
  });

  router.get('/api/callbacks', (req, res) => {
    const transactionNumber = typeof req.query.transactionNumber === 'string' ? req.query.transactionNumber : undefined;
    res.json({ refusing: inbox.refusing, callbacks: inbox.list(transactionNumber) });
  });
  router.put('/api/callbacks/mode', express.json(), (req, res) => {
    inbox.refusing = z.object({ refusing: z.boolean() }).parse(req.body ?? {}).refusing;
    res.json({ refusing: inbox.refusing });
  });

  // Server-Sent Events: every order change (from the service's websocket, which only this backend may open with its
  // key) and every callback received. The browser never sees the key.
  router.get('/api/live', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    res.write('retry: 2000\n\n');
    send('hello', { live: live.state, orders: orders.list().slice(0, 100) });
    const offOrders = orders.onChange((view) => send('order', view));
    const offCallbacks = inbox.onReceive((callback) => send('callback', callback));
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
    req.on('close', () => {
      offOrders();
      offCallbacks();
      clearInterval(heartbeat);
    });
  });

  return router;
}
