/** Entry of dist/sdk.js (Express 1.0.0): finds the payment service from its own <script src> and registers <svc-ecom-sdk-express>. */
import { apiBaseOfRunningScript, installUnlessLoaded } from '@svc/sdk-core/host';
import { SvcEcomSdkExpress } from './components/express-checkout/express-checkout';
import { defineExpress, TAG } from './define';

const apiBase = apiBaseOfRunningScript('Express SDK');
installUnlessLoaded(customElements.get(TAG) !== undefined, 'Express SDK', () => {
  SvcEcomSdkExpress.defaultApiBase = apiBase;
  defineExpress();
});
