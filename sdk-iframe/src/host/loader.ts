/** Entry of dist/sdk.js (iframe SDK 1.0.9, deprecated): installs window.ServiceFrontEndSDK over the iframe adapter. */
import { detectApiBase, type ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { issueWarning } from '@svc/sdk-core/shared';
import { createIframeSdk, warnDeprecated } from './iframe-sdk';

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
if (window.ServiceFrontEndSDK) {
  issueWarning('sdk-loaded-twice', 'A ServiceFrontEndSDK script is on the page twice; the first copy stays in use. Remove the second <script>.');
} else {
  warnDeprecated(apiBase);
  window.ServiceFrontEndSDK = createIframeSdk(window, apiBase);
}
