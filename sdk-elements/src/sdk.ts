/** Entry of dist/sdk.js (Elements 1.1.1): registers <svc-ecom-sdk-elements> and installs window.ServiceFrontEndSDK. */
import { apiBaseOfRunningScript, installUnlessLoaded, type ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { createElementsSDK } from './adapter';
import { SvcEcomSdkElements } from './components/svc-ecom-sdk-elements/svc-ecom-sdk-elements';
import { defineElements } from './define';

declare global {
  interface Window {
    ServiceFrontEndSDK?: ServiceFrontEndSDK;
  }
}

const apiBase = apiBaseOfRunningScript('Elements SDK');
SvcEcomSdkElements.defaultApiBase = apiBase;
defineElements();
installUnlessLoaded(window.ServiceFrontEndSDK !== undefined, 'Elements SDK', () => {
  window.ServiceFrontEndSDK = createElementsSDK(document, apiBase);
});
