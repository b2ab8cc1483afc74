/** The only place the Express element is registered; importing its class has no side effects. */
import { SvcEcomSdkExpress } from './components/express-checkout/express-checkout';

export const TAG = 'svc-ecom-sdk-express';

export function defineExpress(registry: CustomElementRegistry = customElements): void {
  if (!registry.get(TAG)) registry.define(TAG, SvcEcomSdkExpress);
}

declare global {
  interface HTMLElementTagNameMap {
    'svc-ecom-sdk-express': SvcEcomSdkExpress;
  }
}
