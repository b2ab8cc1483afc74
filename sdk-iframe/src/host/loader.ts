/** Entry of dist/sdk.js (iframe SDK 1.0.9, deprecated): installs window.ServiceFrontEndSDK over the iframe adapter. */
import { apiBaseOfRunningScript, installUnlessLoaded, type ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { createIframeSdk, warnDeprecated } from './iframe-sdk';

declare global {
  interface Window {
    ServiceFrontEndSDK?: ServiceFrontEndSDK;
  }
}

const apiBase = apiBaseOfRunningScript('iframe SDK');
installUnlessLoaded(window.ServiceFrontEndSDK !== undefined, 'iframe SDK', () => {
  warnDeprecated(apiBase);
  window.ServiceFrontEndSDK = createIframeSdk(window, apiBase);
});
