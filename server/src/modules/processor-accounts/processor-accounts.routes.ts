import { ENDPOINT } from '@svc/protocol';
import type { Clock } from '../../clock';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import type { ProcessorRegistry } from '../../processor/processor-registry';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { connectProcessor, merchantProcessor } from './processor-accounts.service';

/** The merchant's own processor account (docs/operating.md#a-merchants-own-account): merchant API key only. */
export function processorAccountsRoutes(deps: { db: Database; clock: Clock; env: Env; processors?: ProcessorRegistry | undefined }): EndpointRoute[] {
  return [
    route(ENDPOINT.getMerchantProcessor, async ({ res, principal }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await merchantProcessor(deps.db, deps.env, principal().merchantId));
    }),
    route(ENDPOINT.connectMerchantProcessor, async ({ body, principal, run, send }) => {
      const { merchantId, credentialId } = principal();
      const change = { merchantId, actor: { kind: 'merchant_key' as const, credentialId }, now: deps.clock.now() };
      const answer = await run(async (tx) => ({ body: await connectProcessor(tx, deps.env, change, body) }));
      // Committed: this instance's next payment for the merchant goes to the new account without waiting for the
      // trigger's notice, which tells the other instances.
      deps.processors?.forget(merchantId);
      send(answer);
    }),
  ];
}
