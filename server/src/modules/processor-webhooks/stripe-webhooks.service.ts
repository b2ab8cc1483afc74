import Stripe from 'stripe';
import type { Queryable } from '../../db/client';
import type { Env } from '../../env';
import { ApiError } from '../../errors';
import type { Logger } from '../../logger';
import { completeToldAuthentication, type AuthenticationFlowDeps } from '../authentication-flow';
import { stripeSignerSpeaksFor, stripeWebhookAccounts } from '../processor-accounts';

/** How many event ids are remembered, so an event Stripe sends again (it retries until answered 2xx) is taken once. */
const REMEMBERED_EVENTS = 10_000;
/** The events of a PaymentIntent that has left 3-D Secure's `requires_action`: paid, authorized, or refused. */
const AUTHENTICATION_EVENTS = new Set(['payment_intent.succeeded', 'payment_intent.amount_capturable_updated', 'payment_intent.payment_failed']);

export type StripeWebhookDeps = AuthenticationFlowDeps & { db: Queryable; env: Env; logger: Logger };

/**
 * A Stripe event (`body`, as sent, and its `Stripe-Signature`), verified against the signing secrets of the accounts
 * it may come from: the default account's (STRIPE_WEBHOOK_SECRET) and each merchant's own Stripe account's
 * (PUT /merchant/processor, at most MAX_STRIPE_WEBHOOK_ACCOUNTS), every one tried with one HMAC. One that verifies
 * with none throws a 401 and changes nothing. A verified event is logged (its id, its type and whose account), once
 * however often Stripe sends it (`seen`, the ids already taken); an event that a PaymentIntent left the bank's step
 * (`AUTHENTICATION_EVENTS`) completes the authentication waiting on it, should it come before the consumer's return
 * (docs/integrating.md#3-d-secure), when the account that signed it is the one that merchant's payments go to.
 */
export async function receiveStripeEvent(deps: StripeWebhookDeps, seen: Set<string>, body: Buffer, signature: string | undefined): Promise<void> {
  const { env, logger } = deps;
  const secrets: Signer[] = [
    ...(env.STRIPE_WEBHOOK_SECRET ? [{ secret: env.STRIPE_WEBHOOK_SECRET, merchantId: null }] : []),
    ...(signature ? await stripeWebhookAccounts(deps) : []),
  ];
  const found = signature ? verified(body, signature, secrets) : null;
  if (!found) {
    logger.warn({ code: 'stripe_webhook_unverified', signed: signature !== undefined }, 'a Stripe webhook did not verify; nothing changed');
    throw new ApiError(
      'unauthorized',
      "The Stripe-Signature header does not verify with the webhook signing secret of any Stripe account of the service (STRIPE_WEBHOOK_SECRET, or a merchant's own account's); nothing changed.",
    );
  }
  const { event, signer } = found;
  if (seen.has(event.id)) return;
  logger.info(
    { code: 'stripe_webhook', eventId: event.id, type: event.type, ...(signer.merchantId ? { merchantId: signer.merchantId } : {}) },
    'Stripe webhook received',
  );
  const intent = AUTHENTICATION_EVENTS.has(event.type) ? (event.data.object as Stripe.PaymentIntent) : null;
  const requestKey = intent?.metadata?.['requestKey'];
  // Remembered once taken: a completion that throws answers 500, and Stripe sends the event again.
  if (intent && requestKey) {
    await completeToldAuthentication(deps, requestKey, intent.id, (merchantId) => stripeSignerSpeaksFor(deps.db, signer.merchantId, merchantId));
  }
  seen.add(event.id);
  if (seen.size > REMEMBERED_EVENTS) seen.delete(seen.values().next().value!);
}

/** A secret a Stripe webhook may be signed with: the default account's (merchantId null) or a merchant's own. */
type Signer = { secret: string; merchantId: string | null };

/** The event and whose secret it verifies with: every secret is tried (one HMAC each, whatever the others gave). */
function verified(body: Buffer, signature: string, signers: Signer[]): { signer: Signer; event: Stripe.Event } | null {
  let found: { signer: Signer; event: Stripe.Event } | null = null;
  for (const signer of signers) {
    try {
      const event = Stripe.webhooks.constructEvent(body, signature, signer.secret);
      found ??= { signer, event };
    } catch {
      // Not this account's, or not Stripe's: the next secret is tried all the same.
    }
  }
  return found;
}
