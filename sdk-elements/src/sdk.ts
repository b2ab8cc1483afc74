/** Entry of dist/sdk.js (Elements 1.1.1): registers <svc-ecom-sdk-elements> and installs window.ServiceFrontEndSDK. */
import { detectApiBase, type ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { issueWarning } from '@svc/sdk-core/shared';
import { createElementsSDK } from './adapter';
import { SvcEcomSdkElements } from './components/svc-ecom-sdk-elements/svc-ecom-sdk-elements';
import { defineElements } from './define';

declare global {
  interface Window {
    ServiceFrontEndSDK?: ServiceFrontEndSDK;
  }
}

const { apiBase, guessed } = detectApiBase(document.currentScript, location.href);
if (guessed)
  issueWarning(
    'api-base-guessed',
    `The SDK could not tell where it was loaded from; it uses ${apiBase}. Load it with a <script src> tag from the payment service.`,
  );
SvcEcomSdkElements.defaultApiBase = apiBase;
defineElements();
if (window.ServiceFrontEndSDK)
  issueWarning('sdk-loaded-twice', 'The Elements SDK script is on the page twice; the first copy stays in use. Remove the second <script>.');
else window.ServiceFrontEndSDK = createElementsSDK(document, apiBase);
