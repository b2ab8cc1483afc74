/** Entry of dist/sdk.js (iframe SDK 1.0.9, deprecated): installs window.ServiceFrontEndSDK over the iframe adapter. */
import { apiBaseOfRunningScript, installUnlessLoaded, type ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { createIframeSdk } from './iframe-sdk';

declare global {
  interface Window {
    ServiceFrontEndSDK?: ServiceFrontEndSDK;
  }
}

// The deprecation warning (`sdk-deprecated`) comes from the widget page when it starts (widget-app.ts): the loader
// carries only what is needed before the iframe loads.
const apiBase = apiBaseOfRunningScript('iframe SDK');
installUnlessLoaded(window.ServiceFrontEndSDK !== undefined, 'iframe SDK', () => {
  window.ServiceFrontEndSDK = createIframeSdk(window, apiBase);
});
