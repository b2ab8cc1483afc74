import { ENDPOINT } from '@svc/protocol';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import type { ServiceDeps } from '../../service-deps';
import { eventPage, redeliverEvent } from './event-log';

/** The merchant's event log, and an event sent to an endpoint again. */
export function eventsRoutes(deps: ServiceDeps): EndpointRoute[] {
  return [
    route(ENDPOINT.listEvents, async ({ query, principal, res }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await eventPage(deps.db, principal().merchantId, query, deps.clock.now()));
    }),
    // Under the request's Idempotency-Key, as every mutating POST: a retry replays the first answer, not a new restart.
    route(ENDPOINT.redeliverEvent, ({ params, body, principal, mutate }) =>
      mutate(async (tx) => ({
        status: 202,
        body: await redeliverEvent(tx, principal().merchantId, params.eventId, body.endpointId, deps.clock.now()),
      })),
    ),
  ];
}
