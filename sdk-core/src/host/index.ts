/**
 * `@svc/sdk-core/host`: code that runs in the merchant's page. It never sees card data and never imports frame code.
 */
export type { CardFieldError, WidgetAdapter, WidgetConfig, WidgetEvents, WidgetHandle } from './adapter';
export { createServiceFrontEndSDK, type ServiceFrontEndSDK, type ServiceFrontEndSDKOptions } from './service-front-end-sdk';
export { createSession, payWithWallet, submitWalletPayment, type ApiResult, type WalletPayment } from './api-client';
export { payOptionsFrom, type PaymentFields } from './pay-options';
export { SessionController, type ControllerHost, type SessionParams, type SessionState } from './session-controller';
export { detectApiBase } from './api-base';
