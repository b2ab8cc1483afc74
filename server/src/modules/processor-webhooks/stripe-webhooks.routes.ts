import express, { Router } from 'express';
import { perAddressLimit } from '../../http/address-limit';
import type { RateLimiter } from '../../http/rate-limit';
import { PROCESSOR_WEBHOOK_SCOPE } from './adyen-webhooks.routes';
import { receiveStripeEvent, type StripeWebhookDeps } from './stripe-webhooks.service';

export const STRIPE_WEBHOOKS_PATH = '/processors/stripe/webhooks';
/** Stripe's events are small; a body above this is not one. */
const BODY_LIMIT = '256kb';

/**
 * `POST /processors/stripe/webhooks`, the endpoint registered at Stripe (docs/operating.md#choosing-a-processor): the
 * raw body and its `Stripe-Signature` go to `receiveStripeEvent`, which verifies them against every account's signing
 * secret (a 401 when none verifies) and takes the event once. The Stripe connector has every outcome in the API's
 * answer (captures, cancels and refunds are synchronous there), so a verified event is acknowledged; the one exception
 * is 3-D Secure (an intent that left the bank's step completes the authentication waiting on it). Limited per
 * address as Adyen's (`PROCESSOR_WEBHOOK_SCOPE`): 429 `rate_limited`, which Stripe retries.
 */
export function stripeWebhooksRouter(deps: StripeWebhookDeps & { limiter: RateLimiter }): Router {
  const router = Router();
  const seen = new Set<string>();
  router.post(
    STRIPE_WEBHOOKS_PATH,
    perAddressLimit(deps.limiter, PROCESSOR_WEBHOOK_SCOPE),
    express.raw({ type: () => true, limit: BODY_LIMIT }),
    async (req, res) => {
      await receiveStripeEvent(deps, seen, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), req.get('stripe-signature'));
      res.json({ received: true });
    },
  );
  return router;
}
