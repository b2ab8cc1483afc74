import express, { Router } from 'express';
import { z } from 'zod';
import { CartSchema, priceCart, type PricedCart } from '../catalogue';
import { DemoError } from '../demo-error';
import type { DemoDeps } from '../deps';
import { OrderIdSchema, viewOf, type Order } from '../orders';

const LinkBody = z
  .object({ phone: z.string().trim().max(30).optional(), email: z.string().trim().max(254).optional(), items: CartSchema.optional() })
  .transform((b) => ({ ...b, phone: b.phone || undefined, email: b.email || undefined }));
const PosBody = z.object({ items: CartSchema.optional() });

/** The consumer's link of an order's transaction and its QR code (an SVG the service draws). */
function linkOf(order: Order) {
  const qrURL = order.transaction?.transactionPage.qrURL ?? null;
  return { qrURL, qrSvgUrl: qrURL ? `${qrURL.replace(/\/+$/, '')}/qr.svg` : null };
}

/** Transactions the shop creates itself with its API key: a payment link sent by SMS or e-mail, and the shop's terminal. */
export function paymentRequestRoutes({ config, service, orders }: DemoDeps): Router {
  const router = Router();
  const callbackURL = () => `${config.DEMO_PUBLIC_URL}/api/service-callbacks`;
  const products = (cart: PricedCart) => cart.lines.map((l) => ({ name: l.name, quantity: l.quantity, amount: l.priceCents }));

  // "Send a payment link": the service sends it (in the sandbox, to its outbox) and the page follows its status.
  router.post('/api/links', express.json(), async (req, res) => {
    const body = LinkBody.parse(req.body ?? {});
    if (!body.phone && !body.email) throw new DemoError(400, 'Enter a phone number or an e-mail address to send the link to.', 'recipient_missing');
    const cart = priceCart(body.items);
    const order = orders.create(cart, 'link', 'sale');
    const transaction = await orders.act(order, 'send link', async () =>
      (await service.connect()).client.init({
        amount: cart.amount,
        isCent: true,
        currency: cart.currency,
        products: products(cart),
        callbackURL: callbackURL(),
        phone: body.phone,
        email: body.email,
      }),
    );
    order.paid = true;
    orders.track(order, transaction);
    res.status(201).json({ order: viewOf(order), ...linkOf(order) });
  });

  // The outbox messages of an order's link (sandbox: what the SMS or e-mail said).
  router.get('/api/links/:orderId', async (req, res) => {
    const order = orders.find(OrderIdSchema.parse(req.params.orderId));
    const { messages } = await (await service.connect()).client.sandboxMessages();
    res.json({ order: viewOf(order), ...linkOf(order), messages: messages.filter((m) => m.transactionNumber === order.transactionNumber) });
  });

  // The point of sale: a transaction for the shop's terminal, its QR code, the sticker and the terminal simulator.
  router.post('/api/pos', express.json(), async (req, res) => {
    const cart = priceCart(PosBody.parse(req.body ?? {}).items);
    const order = orders.create(cart, 'pos', 'sale');
    const { merchant, client } = await service.connect();
    const transaction = await orders.act(order, 'create POS transaction', () =>
      client.init({
        amount: cart.amount,
        isCent: true,
        currency: cart.currency,
        products: products(cart),
        callbackURL: callbackURL(),
        deviceId: merchant.deviceId,
        pos: 'Demo counter',
      }),
    );
    order.paid = true;
    orders.track(order, transaction);
    res.status(201).json({ order: viewOf(order), ...linkOf(order), stickerUrl: merchant.stickerUrl ?? null });
  });

  // The sandbox terminal simulator of the shop's device. The device ID goes in the fragment (never a path or query),
  // so it stays out of logs; it is a sandbox-only convenience, a real terminal holds its own ID.
  router.get('/api/pos/terminal', async (_req, res) => {
    const { merchant } = await service.connect();
    res.json({ terminalUrl: `${config.SERVICE_URL}/sandbox/terminal#${merchant.deviceId}`, stickerUrl: merchant.stickerUrl ?? null });
  });

  return router;
}
