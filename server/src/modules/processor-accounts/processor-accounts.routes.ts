import { ENDPOINT } from '@svc/protocol';
import type { Clock } from '../../clock';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { connectProcessor, merchantProcessor } from './processor-accounts.service';

/** The merchant's own processor account (docs/operating.md#a-merchants-own-account): merchant API key only. */
export function processorAccountsRoutes(deps: { db: Database; clock: Clock; env: Env }): EndpointRoute[] {
  return [
    route(ENDPOINT.getMerchantProcessor, async ({ res, principal }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await merchantProcessor(deps.db, deps.env, principal().merchantId));
    }),
    route(ENDPOINT.connectMerchantProcessor, async ({ body, principal, mutate }) => {
      const { merchantId, credentialId } = principal();
      const change = { merchantId, actor: { kind: 'merchant_key' as const, credentialId }, now: deps.clock.now() };
      await mutate(async (tx) => ({ body: await connectProcessor(tx, deps.env, change, body) }));
    }),
  ];
}
