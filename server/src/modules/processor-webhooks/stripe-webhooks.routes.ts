import express, { Router } from 'express';
import Stripe from 'stripe';
import type { Env } from '../../env';
import { ApiError } from '../../errors';
import type { Logger } from '../../logger';
import { completeToldAuthentication, type AuthenticationFlowDeps } from '../authentication-flow';

export const STRIPE_WEBHOOKS_PATH = '/processors/stripe/webhooks';
/** Stripe's events are small; a body above this is not one. */
const BODY_LIMIT = '256kb';
/** How many event ids are remembered, so an event Stripe sends again (it retries until answered 2xx) is taken once. */
const REMEMBERED_EVENTS = 10_000;
/** The events of a PaymentIntent that has left 3-D Secure's `requires_action`: paid, authorized, or refused. */
const AUTHENTICATION_EVENTS = new Set(['payment_intent.succeeded', 'payment_intent.amount_capturable_updated', 'payment_intent.payment_failed']);

/**
 * `POST /processors/stripe/webhooks`, the endpoint registered at Stripe (docs/operating.md#choosing-a-processor): each event is
 * verified with the package's `constructEvent` against the account's signing secret (`Stripe-Signature`, the raw
 * body); one that does not verify is a 401 and changes nothing. The Stripe connector has every outcome in the API's
 * answer (captures, cancels and refunds are synchronous there), so a verified event is acknowledged and logged (its
 * id and type only), once however often Stripe sends it. The one exception is 3-D Secure: an event that a
 * PaymentIntent left the bank's step (`AUTHENTICATION_EVENTS`) completes the authentication waiting on it, should it
 * come before the consumer's return (docs/integrating.md#3-d-secure).
 */
export function stripeWebhooksRouter(deps: AuthenticationFlowDeps & { env: Env; logger: Logger }): Router {
  const { env, logger } = deps;
  const router = Router();
  const seen = new Set<string>();
  const secrets = [env.STRIPE_WEBHOOK_SECRET].filter((secret): secret is string => secret !== undefined);
  router.post(STRIPE_WEBHOOKS_PATH, express.raw({ type: () => true, limit: BODY_LIMIT }), async (req, res, next) => {
    const signature = req.get('stripe-signature');
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const event = signature ? verified(body, signature, secrets) : null;
    if (!event) {
      logger.warn({ code: 'stripe_webhook_unverified', signed: signature !== undefined }, 'a Stripe webhook did not verify; nothing changed');
      next(new ApiError('unauthorized', "The Stripe-Signature header does not verify with this service's Stripe webhook signing secret; nothing changed."));
      return;
    }
    const repeated = seen.has(event.id);
    if (!repeated) {
      logger.info({ code: 'stripe_webhook', eventId: event.id, type: event.type }, 'Stripe webhook received');
      const intent = AUTHENTICATION_EVENTS.has(event.type) ? (event.data.object as Stripe.PaymentIntent) : null;
      const requestKey = intent?.metadata?.['requestKey'];
      // Remembered once taken: a completion that throws answers 500, and Stripe sends the event again.
      if (intent && requestKey) await completeToldAuthentication(deps, requestKey, intent.id);
      seen.add(event.id);
      if (seen.size > REMEMBERED_EVENTS) seen.delete(seen.values().next().value!);
    }
    res.json({ received: true });
  });
  return router;
}

/** The event, if `body` verifies with one of the accounts' secrets. */
function verified(body: Buffer, signature: string, secrets: string[]): Stripe.Event | null {
  for (const secret of secrets) {
    try {
      return Stripe.webhooks.constructEvent(body, signature, secret);
    } catch {
      // Not this account's, or not Stripe's: try the next secret.
    }
  }
  return null;
}
