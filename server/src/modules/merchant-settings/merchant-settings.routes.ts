import { ENDPOINT } from '@svc/protocol';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import type { ServiceDeps } from '../../service-deps';
import { merchantSettings, updateMerchantSettings } from './merchant-settings.service';

/** The merchant's settings, read and changed with its API key (a branch key is refused by the endpoint table). */
export function merchantSettingsRoutes(deps: ServiceDeps): EndpointRoute[] {
  return [
    route(ENDPOINT.getMerchantSettings, async ({ principal, res }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await merchantSettings(deps.db, principal().merchantId));
    }),
    route(ENDPOINT.updateMerchantSettings, ({ body, principal, mutate }) =>
      mutate(async (tx) => {
        const { merchantId, credentialId } = principal();
        const change = { actor: { kind: 'merchant_key' as const, credentialId }, at: deps.clock.now() };
        return { body: await updateMerchantSettings(tx, deps.env, merchantId, body, change) };
      }),
    ),
  ];
}
