/** Webhooks the processors send: Adyen's notifications of captures, cancels and refunds, and Stripe's events. */
export { adyenWebhooksRouter, ADYEN_WEBHOOK_PATH } from './adyen-webhooks.routes';
export { STRIPE_WEBHOOKS_PATH, stripeWebhooksRouter } from './stripe-webhooks.routes';
