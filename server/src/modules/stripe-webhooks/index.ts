/** Stripe's webhooks: the stripe-webhooks module's public surface. */
export { STRIPE_WEBHOOKS_PATH, stripeWebhooksRouter } from './stripe-webhooks.routes';
