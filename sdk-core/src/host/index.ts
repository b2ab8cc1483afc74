/**
 * `@svc/sdk-core/host`: code that runs in the merchant's page (and the SDK's core, which the iframe SDK runs in its
 * widget page, sdk-core.ts). It never sees card data and never imports frame code.
 */
export type { CardFieldError, WidgetAdapter, WidgetConfig, WidgetEvents, WidgetHandle } from './adapter';
export { createServiceFrontEndSDK, type ServiceFrontEndSDK, type ServiceFrontEndSDKOptions } from './service-front-end-sdk';
export { createSdkCore, localCore, type SdkCore, type SdkCoreOptions } from './sdk-core';
export { type Connect, type CoreCall, type CoreEvent, type SdkLink } from './sdk-link';
export { createSession, payWithWallet, submitWalletPayment, type ApiResult, type WalletPayment } from './api-client';
export { payOptionsFrom, type PaymentFields } from './pay-options';
export {
  PHASE_STATUS_KEY,
  shopperErrorKey,
  type WidgetTextKey,
  WidgetController,
  type FieldsStatus,
  type PaymentOutcome,
  type WidgetControllerOptions,
  type WidgetHost,
  type WidgetPhase,
} from './widget-controller';
export { SessionController, type ControllerHost, type SessionParams, type SessionState } from './session-controller';
export { apiBaseOfRunningScript, detectApiBase, installUnlessLoaded } from './api-base';
