/** Entry of dist/sdk.js (Express 1.0.0): finds the payment service from its own <script src> and registers <svc-ecom-sdk-express>. */
import { detectApiBase } from '@svc/sdk-core/host';
import { issueWarning } from '@svc/sdk-core/shared';
import { SvcEcomSdkExpress } from './components/express-checkout/express-checkout';
import { defineExpress, TAG } from './define';

const { apiBase, guessed } = detectApiBase(document.currentScript, location.href);
if (guessed) issueWarning('api-base-guessed', `Load the Express SDK with a <script src> from the payment service; it uses ${apiBase}.`);
if (customElements.get(TAG)) {
  issueWarning('sdk-loaded-twice', 'The Express SDK is on the page twice; remove the second <script>.');
} else {
  SvcEcomSdkExpress.defaultApiBase = apiBase;
  defineExpress();
}
