import { ENDPOINT } from '@svc/protocol';
import type { ServiceDeps } from '../../service-deps';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { closeAuthorization, pay, reauthorize, voidAuthorization } from './authorizations.service';

/** pay, void, authorize and closeAuth: the merchant's moves on an authorization. */
export function authorizationsRoutes(deps: ServiceDeps): EndpointRoute[] {
  return [
    route(ENDPOINT.pay, ({ body, principal, mutate }) => mutate((tx, context) => pay(tx, deps, principal(), body, context))),
    route(ENDPOINT.void, ({ body, principal, mutate }) =>
      mutate(async (tx, context) => ({ body: await voidAuthorization(tx, deps, principal(), body, context) })),
    ),
    route(ENDPOINT.authorize, ({ body, principal, mutate }) => mutate((tx, context) => reauthorize(tx, deps, principal(), body, context))),
    route(ENDPOINT.closeAuthorization, ({ params, principal, mutate }) =>
      mutate(async (tx, context) => ({ body: await closeAuthorization(tx, deps, principal(), params.transactionNumber, context) })),
    ),
  ];
}
