import { ENDPOINT, type CallbackLog, type RedeliverResponse } from '@svc/protocol';
import { NotFoundError } from '../../errors';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import type { ServiceDeps } from '../../service-deps';
import { listDeliveries, restartDelivery, visibleTransactionId } from './callbacks.queries';

/** The delivery log of a transaction, and redelivery. */
export function callbacksRoutes(deps: ServiceDeps): EndpointRoute[] {
  return [
    route(ENDPOINT.listCallbacks, async ({ params, principal, res }) => {
      const transactionId = await visibleTransactionId(deps.db, principal(), params.transactionNumber);
      if (!transactionId) throw new NotFoundError('transaction');
      const log = await listDeliveries(deps.db, transactionId);
      const body: CallbackLog = {
        deliveries: log.map(({ delivery, attempts }) => ({
          deliveryId: delivery.id,
          eventId: delivery.eventId,
          sequence: delivery.sequence,
          url: delivery.url,
          method: delivery.method,
          status: delivery.state,
          state: delivery.state,
          nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
          attempts: attempts.map((a) => ({ at: a.startedAt.toISOString(), httpStatus: a.httpStatus, error: a.error, durationMs: a.durationMs })),
        })),
      };
      res.json(body);
    }),
    // Under the request's Idempotency-Key, as every mutating POST: a retry replays the first answer, not a new restart.
    route(ENDPOINT.redeliverCallback, async ({ params, principal, mutate }) => {
      const { deliveryId } = params;
      await mutate(async (tx) => {
        // Another merchant's, or another branch's, delivery does not exist for this caller.
        const restarted = await restartDelivery(tx, principal(), deliveryId, deps.clock.now());
        if (!restarted) throw new NotFoundError('delivery');
        const body: RedeliverResponse = { deliveryId, status: 'pending', state: 'pending', nextAttemptAt: restarted.nextAttemptAt?.toISOString() ?? null };
        return { status: 202, body };
      });
    }),
  ];
}
