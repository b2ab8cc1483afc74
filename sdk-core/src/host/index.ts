/**
 * `@svc/sdk-core/host`: code that runs in the merchant's page (and the SDK's engine, which the iframe SDK runs in its
 * widget page, sdk-engine.ts). It never sees card data and never imports frame code.
 */
export { AuthenticationDialog, isServicePage, type AuthenticationDialogOptions, type AuthenticationTextKey } from './authentication-dialog';
export { openAuthenticationDialog, type AuthenticationDialogHandle } from './open-authentication-dialog';
export type { CardFieldError, WidgetAdapter, WidgetConfig, WidgetEvents, WidgetHandle } from './adapter';
export { createServiceFrontEndSDK, type ServiceFrontEndSDK, type ServiceFrontEndSDKOptions } from './service-front-end-sdk';
export { SdkEngine, localEngine, type SdkEngineOptions } from './sdk-engine';
export { type Connect, type EngineCall, type EngineEvent, type SdkLink } from './sdk-link';
export { createSession, payWithWallet, submitWalletPayment, type ApiResult, type WalletPayment } from './api-client';
export { payOptionsFrom, type PaymentFields } from './pay-options';
export {
  alertKey,
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
