import { ENDPOINT } from '@svc/protocol';
import type { ServiceDeps } from '../../service-deps';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { refundTransaction } from './refunds.service';

/** Refund settled money. */
export function refundsRoutes(deps: ServiceDeps): EndpointRoute[] {
  return [
    route(ENDPOINT.refundTransaction, ({ params, body, principal, mutate }) =>
      mutate((tx, context) => refundTransaction(tx, deps, principal(), params.transactionNumber, body, context)),
    ),
  ];
}
