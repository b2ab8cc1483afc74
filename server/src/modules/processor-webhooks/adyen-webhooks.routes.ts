import { Router } from 'express';
import type { ServiceDeps } from '../../service-deps';
import type { ProcessorOperations } from '../processor-requests';
import { receiveAdyenNotification } from './adyen-webhooks.service';

export const ADYEN_WEBHOOK_PATH = '/processors/adyen/webhooks';

/**
 * Adyen's webhook (register `https://<PUBLIC_BASE_URL>/processors/adyen/webhooks` in Adyen's Customer Area, standard
 * notifications, JSON, HMAC). Answered `[accepted]` once every item is kept, as Adyen expects; a bad signature is a
 * 401 problem and a malformed body a 400: Adyen sends the batch again until it is accepted. Not part of the merchant
 * API (its caller is Adyen, proven by the signature), so it is not in the endpoint table.
 */
export function adyenWebhooksRouter(deps: ServiceDeps & { operations: ProcessorOperations }): Router {
  const router = Router();
  router.post(ADYEN_WEBHOOK_PATH, async (req, res) => {
    await receiveAdyenNotification(deps, deps.operations, req.body);
    res.status(200).type('text/plain').send('[accepted]');
  });
  return router;
}
