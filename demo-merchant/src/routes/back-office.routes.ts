import { REFUND_REASONS, TRANSACTION_STATUSES, TransactionStatusCodeSchema, type MerchantClient, type Transaction } from '@svc/protocol';
import express, { Router, type Request } from 'express';
import { z } from 'zod';
import { DemoError } from '../demo-error';
import type { DemoDeps } from '../deps';
import { OrderIdSchema, viewOf, type Order } from '../orders';

const Cents = z.number().int().positive();
const AmountBody = z.object({ amount: Cents });
const OptionalAmountBody = z.object({ amount: Cents.optional() });
const DeliveryIdSchema = z.string().min(1).max(100);
/** A refund as the back office asks for it: an amount (omitted: everything still refundable) and a reason. */
const RefundBody = z.object({ amount: Cents.optional(), reason: z.enum(REFUND_REASONS).optional(), description: z.string().max(500).optional() });

/** The back office's search: what the page sends (each once), checked before it goes to the service. */
const TransactionSearchSchema = z.strictObject({
  q: z.string().trim().max(64).optional(),
  status: z
    .string()
    .regex(/^\d{1,2}$/)
    .transform(Number)
    .pipe(TransactionStatusCodeSchema)
    .optional(),
  startingAfter: z.string().min(1).max(200).optional(),
});
const SEARCH_PAGE_SIZE = 10;

/**
 * A transaction as the back office's list shows it. The page is a browser: it never gets the whole object, whose
 * commit link, token and POS data are the shop's backend's alone.
 */
function listed(t: Transaction) {
  return {
    transactionNumber: t.TransactionNumber,
    createdAt: t.createdAt,
    methodType: t.methodType,
    amountCents: t.amountCents,
    currency: t.currency,
    status: t.status,
    statusName: t.statusName,
    confirmationNumber: t.confirmation?.confirmationNumber ?? null,
    lastFourDigits: t.confirmation?.lastFourDigits ?? null,
    installments: t.confirmation?.installments ?? null,
    // How the bank authenticated the card holder (3-D Secure): `challenge`, `frictionless`, or null when it did not.
    threeDSecure: t.confirmation?.threeDSecure?.flow ?? null,
    lastDeclineCode: t.lastDeclineCode ?? null,
  };
}

/**
 * The back office: the shop's orders and their transactions, and what a merchant does with them afterwards. Every
 * action goes to the service with the API key; a refusal answers with the service's own code and detail and stays on
 * the order.
 */
export function backOfficeRoutes({ service, orders }: DemoDeps): Router {
  const router = Router();
  router.use('/api/orders', express.json());

  router.get('/api/orders', (_req, res) => res.json({ orders: orders.list() }));
  router.get('/api/orders/:orderId', (req, res) => res.json(viewOf(orders.find(OrderIdSchema.parse(req.params.orderId)))));

  const authorizationToken = (order: Order): string => {
    if (order.token?.type !== 'authorization') throw new DemoError(409, `Order ${order.orderId} holds no authorization.`, 'not_an_authorization');
    return order.token.value;
  };
  /** One action on one order: run with the API key, track the transaction the service answers, answer the order. */
  const action =
    (name: string, run: (client: MerchantClient, order: Order, req: Request) => Promise<Transaction>) => async (req: Request, res: express.Response) => {
      const order = orders.take(OrderIdSchema.parse(req.params.orderId));
      try {
        const transaction = await orders.act(order, name, async () => run((await service.connect()).client, order, req));
        orders.track(order, transaction);
      } catch (error) {
        await orders.refresh(order, service);
        throw error;
      }
      res.json(viewOf(order));
    };

  router.post(
    '/api/orders/:orderId/capture',
    action('capture', async (client, order, req) => {
      const token = authorizationToken(order);
      const { amount } = OptionalAmountBody.parse(req.body ?? {});
      return (await client.pay({ token, amount: amount ?? order.transaction?.authorization?.availableCents ?? order.amount })).transaction;
    }),
  );
  router.post(
    '/api/orders/:orderId/void',
    action('void', (client, order) => client.void({ token: authorizationToken(order) })),
  );
  router.post(
    '/api/orders/:orderId/reauthorize',
    action('re-authorize', (client, order, req) => client.authorize({ token: authorizationToken(order), amount: AmountBody.parse(req.body ?? {}).amount })),
  );
  router.post(
    '/api/orders/:orderId/close-auth',
    action('closeAuth', (client, order) => {
      authorizationToken(order);
      return client.closeAuth(order.transactionNumber!);
    }),
  );
  router.post(
    '/api/orders/:orderId/cancel',
    action('cancel', (client, order) => {
      if (!order.transactionNumber) throw new DemoError(409, `Order ${order.orderId} has no transaction yet.`, 'no_transaction');
      return client.cancel(order.transactionNumber);
    }),
  );
  // Settled money given back; the service says what is refundable, and refuses the rest in its own words.
  router.post(
    '/api/orders/:orderId/refund',
    action('refund', async (client, order, req) => {
      if (!order.transactionNumber) throw new DemoError(409, `Order ${order.orderId} has no transaction yet.`, 'no_transaction');
      return (await client.refund(order.transactionNumber, RefundBody.parse(req.body ?? {}))).transaction;
    }),
  );
  router.post('/api/orders/:orderId/refresh', async (req, res) => {
    const order = orders.find(OrderIdSchema.parse(req.params.orderId));
    await orders.refresh(order, service);
    res.json(viewOf(order));
  });

  // A saved card (tokenize) is charged again: a new sale, a new order of the shop.
  router.post('/api/orders/:orderId/charge', async (req, res) => {
    const saved = orders.find(OrderIdSchema.parse(req.params.orderId));
    if (saved.token?.type !== 'token') throw new DemoError(409, `Order ${saved.orderId} saved no card.`, 'no_saved_card');
    const { amount } = OptionalAmountBody.parse(req.body ?? {});
    const token = saved.token.value;
    const charge = orders.create(
      { description: `Charge of the card saved with ${saved.orderId}`, amount: amount ?? saved.amount, currency: saved.currency },
      'saved_card',
      'sale',
    );
    const paid = await orders.act(charge, 'charge', async () =>
      (await service.connect()).client.pay({ token, amount: charge.amount, currency: charge.currency }),
    );
    charge.paid = true;
    orders.track(charge, paid.transaction);
    res.status(201).json(viewOf(charge));
  });

  // The service's delivery log of the order's callbacks, and sending one again.
  router.get('/api/orders/:orderId/callbacks', async (req, res) => {
    const order = orders.find(OrderIdSchema.parse(req.params.orderId));
    if (!order.transactionNumber) return res.json({ deliveries: [] });
    res.json(await (await service.connect()).client.callbacks(order.transactionNumber));
  });
  router.post('/api/callbacks/:deliveryId/redeliver', async (req, res) => {
    res.json(await (await service.connect()).client.redeliver(DeliveryIdSchema.parse(req.params.deliveryId)));
  });

  // Every transaction of the merchant at the service, newest first, searched and paged there (GET /transactions).
  router.get('/api/transactions', async (req, res) => {
    const search = TransactionSearchSchema.parse(Object.fromEntries(Object.entries(req.query).filter(([, value]) => value !== '')));
    const page = await (await service.connect()).client.listTransactions({ ...search, limit: SEARCH_PAGE_SIZE });
    res.json({
      transactions: page.data.map(listed),
      hasMore: page.hasMore,
      nextCursor: page.nextCursor,
      statuses: TRANSACTION_STATUSES.map(({ status, statusName }) => ({ status, statusName })),
    });
  });

  // The sandbox clock: moving it applies time-outs, commit windows, hold expiry and callback retries.
  router.get('/api/clock', async (_req, res) => res.json(await (await service.connect()).client.sandboxClock()));
  router.post('/api/clock/advance', express.json(), async (req, res) => {
    const { seconds } = z
      .object({
        seconds: z
          .number()
          .int()
          .min(1)
          .max(30 * 24 * 3600),
      })
      .parse(req.body ?? {});
    res.json(await (await service.connect()).client.advanceSandboxClock(seconds));
  });

  return router;
}
