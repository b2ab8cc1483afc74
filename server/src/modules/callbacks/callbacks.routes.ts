import type { CallbackLog, RedeliverResponse } from '@svc/protocol';
import { Router } from 'express';
import { z } from 'zod';
import type { Clock } from '../../clock';
import { NotFoundError } from '../../errors';
import { authenticate, principalOf, type AuthenticateDeps } from '../../http/authenticate';
import { parseInput } from '../../http/parse';
import { TransactionNumberParam } from '../../http/path-params';
import { findTransactionRowForPrincipal } from '../transactions';
import { listDeliveries, restartDelivery } from './callbacks.queries';

const DeliveryIdParam = z.uuid('is not a delivery id');

/** What the callback routes use: credentials to authenticate with, and the clock. */
export type CallbacksRouterDeps = AuthenticateDeps & { clock: Clock };

/** The delivery log of a transaction, and redelivery. */
export function callbacksRouter(deps: CallbacksRouterDeps): Router {
  const router = Router();
  const merchantOnly = authenticate(deps, { allow: ['merchant_key', 'branch_key'] });

  router.get('/transactions/:transactionNumber/callbacks', merchantOnly, async (req, res) => {
    const number = parseInput(TransactionNumberParam, req.params.transactionNumber, ['transactionNumber']);
    const row = await findTransactionRowForPrincipal(deps.db, principalOf(res), number);
    if (!row) throw new NotFoundError('transaction');
    const log = await listDeliveries(deps.db, row.id);
    const body: CallbackLog = {
      deliveries: log.map(({ delivery, attempts }) => ({
        deliveryId: delivery.id,
        eventId: delivery.eventId,
        sequence: delivery.sequence,
        url: delivery.url,
        method: delivery.method,
        state: delivery.state,
        nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
        attempts: attempts.map((a) => ({ at: a.startedAt.toISOString(), httpStatus: a.httpStatus, error: a.error, durationMs: a.durationMs })),
      })),
    };
    res.json(body);
  });

  router.post('/callbacks/:deliveryId/redeliver', merchantOnly, async (req, res) => {
    const deliveryId = parseInput(DeliveryIdParam, req.params.deliveryId, ['deliveryId']);
    const principal = principalOf(res);
    // Another merchant's, or another branch's, delivery does not exist for this caller.
    const restarted = await restartDelivery(deps.db, principal, deliveryId, deps.clock.now());
    if (!restarted) throw new NotFoundError('delivery');
    const body: RedeliverResponse = { deliveryId, state: 'pending', nextAttemptAt: restarted.nextAttemptAt?.toISOString() ?? null };
    res.status(202).json(body);
  });

  return router;
}
