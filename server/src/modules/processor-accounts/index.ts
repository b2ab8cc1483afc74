/** A merchant's own processor account: the processor-accounts module's public surface. */
export { MerchantProcessors } from './merchant-processors';
export { forgetChangedProcessorAccounts, PROCESSOR_ACCOUNTS_CHANNEL, ProcessorAccountCache } from './processor-account-cache';
export { connectProcessor, merchantProcessor } from './processor-accounts.service';
export { processorAccountsRoutes } from './processor-accounts.routes';
export { adyenWebhookAccounts, MAX_STRIPE_WEBHOOK_ACCOUNTS, stripeSignerSpeaksFor, stripeWebhookAccounts, type WebhookAccount } from './webhook-accounts';
