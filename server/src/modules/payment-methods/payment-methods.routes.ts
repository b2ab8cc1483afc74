import { ENDPOINT } from '@svc/protocol';
import type { Clock } from '../../clock';
import type { Database } from '../../db/client';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { offeredPaymentMethods, setPaymentMethods } from './payment-methods.service';

/** The payment methods the merchant's widgets offer (docs/integrating.md#payment-methods): merchant API key only. */
export function paymentMethodsRoutes(deps: { db: Database; clock: Clock }): EndpointRoute[] {
  return [
    route(ENDPOINT.getPaymentMethods, async ({ res, principal }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json({ paymentMethods: await offeredPaymentMethods(deps.db, principal().merchantId) });
    }),
    route(ENDPOINT.updatePaymentMethods, async ({ body, principal, mutate }) => {
      const { merchantId, credentialId } = principal();
      const change = { merchantId, actor: { kind: 'merchant_key' as const, credentialId }, now: deps.clock.now() };
      await mutate(async (tx) => ({ body: await setPaymentMethods(tx, change, body.paymentMethods) }));
    }),
  ];
}
