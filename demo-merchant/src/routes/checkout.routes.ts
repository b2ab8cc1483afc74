import { SDK_METHOD_TYPES, SDK_VERSIONS, SdkManifestSchema, type SdkManifest } from '@svc/protocol';
import express, { Router } from 'express';
import { z } from 'zod';
import { CartSchema, priceCart } from '../catalogue';
import { DemoError } from '../demo-error';
import type { DemoDeps } from '../deps';
import { OrderIdSchema, viewOf } from '../orders';

const SdkSchema = z.enum(['elements', 'iframe', 'express']);
type SdkName = z.infer<typeof SdkSchema>;
const OrderBody = z.object({
  items: CartSchema.optional(),
  methodType: z.enum(SDK_METHOD_TYPES).default('manual_capture'),
  sdk: SdkSchema.default('elements'),
});
const CommitBody = z.object({ orderId: OrderIdSchema, transactionNumber: z.string().min(1).max(64) });

export const sdkPath = (sdk: SdkName) => `/sdk/${sdk}/${SDK_VERSIONS[sdk]}/sdk.js`;

/** The checkout: the SDK's address and SRI hash, the order (priced here), and the commit with the API key. */
export function checkoutRoutes({ config, fetchImpl, service, orders }: DemoDeps): Router {
  const router = Router();

  /**
   * The SRI hash of an SDK script, from the service's manifest, so the page loads it with `integrity`. A real shop
   * would pin the hash of the SDK version it tested instead of reading it at run time.
   */
  const sdkIntegrity = async (sdk: SdkName): Promise<string> => {
    let manifest: SdkManifest;
    try {
      const res = await fetchImpl(`${config.SERVICE_URL}/sdk/manifest.json`, { signal: AbortSignal.timeout(3000) });
      manifest = SdkManifestSchema.parse(await res.json());
    } catch {
      throw new DemoError(503, 'The payment service does not answer with its SDK manifest (/sdk/manifest.json).');
    }
    const entry = Object.values(manifest.files).find((file) => file.url.endsWith(sdkPath(sdk)));
    if (!entry) throw new DemoError(503, `The payment service lists no ${sdkPath(sdk)} in its manifest: is the SDK built?`);
    return entry.integrity;
  };

  // Only what a browser may know: the public client ID, where the SDK lives and its SRI hash.
  router.get('/api/config', async (req, res) => {
    const sdk = SdkSchema.default('elements').parse(req.query.sdk);
    const { merchant } = await service.connect();
    res.json({
      clientId: merchant.clientId,
      serviceUrl: config.SERVICE_URL,
      sdkUrl: `${config.SERVICE_URL}${sdkPath(sdk)}`,
      sdkIntegrity: await sdkIntegrity(sdk),
    });
  });

  // The customer starts a checkout of their cart; its amount is the shop's, whatever the page says.
  router.post('/api/checkout/order', express.json(), (req, res) => {
    const body = OrderBody.parse(req.body ?? {});
    const order = orders.create(priceCart(body.items), body.sdk, body.methodType);
    res.status(201).json(viewOf(order));
  });

  // The widget accepted a payment (status 10): commit the order's amount with the API key and keep the token here.
  // A refused commit leaves the order with the refusal and the transaction's status as the service now tells it.
  router.post('/api/checkout/commit', express.json(), async (req, res) => {
    const body = CommitBody.parse(req.body);
    const order = orders.take(body.orderId);
    if (order.paid) throw new DemoError(409, `Order ${order.orderId} is already paid (${order.transactionNumber}).`, 'order_already_paid');
    const other = orders.byTransaction(body.transactionNumber);
    if (other && other !== order) throw new DemoError(409, `Transaction ${body.transactionNumber} pays another order.`, 'transaction_of_another_order');
    order.transactionNumber = body.transactionNumber;
    // Later updates of this payment (captures, voids) come back to this shop as signed callbacks.
    const callbackURL = `${config.DEMO_PUBLIC_URL}/api/service-callbacks`;
    try {
      const committed = await orders.act(order, 'commit', async () => {
        const { client } = await service.connect();
        return client.commit(body.transactionNumber, { amount: order.amount, currency: order.currency, callbackURL });
      });
      order.paid = true;
      order.token = committed.paymentDetails ? { type: committed.paymentDetails.type, value: committed.paymentDetails.token } : null;
      orders.track(order, committed.transaction);
    } catch (error) {
      await orders.refresh(order, service);
      throw error;
    }
    res.json(viewOf(order));
  });

  return router;
}
