/** Webhooks the processors send: Adyen's notifications of captures, cancels and refunds. */
export { adyenWebhooksRouter, ADYEN_WEBHOOK_PATH } from './adyen-webhooks.routes';
