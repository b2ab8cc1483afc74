import { Router } from 'express';
import { perAddressLimit } from '../../http/address-limit';
import type { RateLimiter } from '../../http/rate-limit';
import type { ServiceDeps } from '../../service-deps';
import type { ProcessorOperations } from '../processor-requests';
import { receiveAdyenNotification } from './adyen-webhooks.service';

export const ADYEN_WEBHOOK_PATH = '/processors/adyen/webhooks';
/**
 * The per-address bucket of both processors' webhooks (RATE_LIMIT_PER_S, RATE_LIMIT_BURST: far above the few requests
 * a second a processor sends, batches and retries after an outage included; one refused is sent again).
 */
export const PROCESSOR_WEBHOOK_SCOPE = 'processor-webhook';

/**
 * Adyen's webhook (register `https://<PUBLIC_BASE_URL>/processors/adyen/webhooks` in Adyen's Customer Area, standard
 * notifications, JSON, HMAC). Answered `[accepted]` once every item is kept, as Adyen expects; a bad signature is a
 * 401 problem and a malformed body a 400: Adyen sends the batch again until it is accepted. Not part of the merchant
 * API (its caller is Adyen, proven by the signature), so it is not in the endpoint table. Limited per address
 * (`PROCESSOR_WEBHOOK_SCOPE`): 429 `rate_limited`, which Adyen retries.
 */
export function adyenWebhooksRouter(deps: ServiceDeps & { operations: ProcessorOperations; limiter: RateLimiter }): Router {
  const router = Router();
  router.post(ADYEN_WEBHOOK_PATH, perAddressLimit(deps.limiter, PROCESSOR_WEBHOOK_SCOPE), async (req, res) => {
    await receiveAdyenNotification(deps, deps.operations, req.body);
    res.status(200).type('text/plain').send('[accepted]');
  });
  return router;
}
