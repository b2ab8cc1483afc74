import { ENDPOINT } from '@svc/protocol';
import type { Request } from 'express';
import type { Principal } from '../../auth/principal';
import { presentedCredential } from '../../http/authenticate';
import { route, type EndpointRoute, type KeySpace } from '../../http/endpoint-router';
import type { ServiceDeps } from '../../service-deps';
import * as service from './webhook-endpoints.service';

/** The merchant's webhook endpoints, managed with its API key (a branch key is refused by the endpoint table). */
export function webhookEndpointsRoutes(deps: ServiceDeps): EndpointRoute[] {
  return [
    route(ENDPOINT.createWebhookEndpoint, ({ req, body, principal, mutate }) =>
      mutate(
        async (tx) => ({ body: await service.createWebhookEndpoint(tx, deps.env, principal().merchantId, body, changeBy(principal(), deps.clock.now())) }),
        sealedSpace(req, principal()),
      ),
    ),
    route(ENDPOINT.listWebhookEndpoints, async ({ principal, res }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await service.listWebhookEndpoints(deps.db, principal().merchantId));
    }),
    route(ENDPOINT.getWebhookEndpoint, async ({ params, principal, res }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await service.getWebhookEndpoint(deps.db, principal().merchantId, params.endpointId));
    }),
    route(ENDPOINT.updateWebhookEndpoint, ({ params, body, principal, mutate }) =>
      mutate(async (tx) => ({
        body: await service.updateWebhookEndpoint(tx, deps.env, principal().merchantId, params.endpointId, body, changeBy(principal(), deps.clock.now())),
      })),
    ),
    route(ENDPOINT.deleteWebhookEndpoint, ({ params, principal, mutate }) =>
      mutate(async (tx) => ({
        body: await service.deleteWebhookEndpoint(tx, principal().merchantId, params.endpointId, changeBy(principal(), deps.clock.now())),
      })),
    ),
  ];
}

/** A change made with the merchant's key (the table admits no other). */
function changeBy(principal: Principal, at: Date): service.EndpointChange {
  return { actor: { kind: 'merchant_key', credentialId: principal.credentialId }, at };
}

/**
 * The answer that carries the endpoint's secret is kept under an Idempotency-Key sealed with the calling key (which a
 * replay carries again), never in the clear: reading the idempotency store gives no secret.
 */
function sealedSpace(req: Request, principal: Principal): KeySpace {
  const callerKey = presentedCredential(req);
  if (callerKey === null) throw new Error('an authenticated request presents its key');
  return { merchantId: principal.merchantId, caller: { credentialId: principal.credentialId }, sealWith: callerKey };
}
