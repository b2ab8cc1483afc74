/** The only place custom elements are registered; importing a component class has no side effects. */
import { SvcEcomSdkElements } from './components/svc-ecom-sdk-elements/svc-ecom-sdk-elements';

export const TAG = 'svc-ecom-sdk-elements';

export function defineElements(registry: CustomElementRegistry = customElements): void {
  if (!registry.get(TAG)) registry.define(TAG, SvcEcomSdkElements);
}

declare global {
  interface HTMLElementTagNameMap {
    'svc-ecom-sdk-elements': SvcEcomSdkElements;
  }
}
