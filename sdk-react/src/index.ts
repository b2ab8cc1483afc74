/**
 * `@svc/react`: the payment service's widgets as React components, for React 18 and 19. Each loads its SDK from the
 * service (with the SRI hash the service publishes, once per page), renders its element and calls its `on…` props
 * with the element's events; strict mode's mount, unmount and mount again leave one element and one listener per event.
 */
export { ServiceElements, type ServiceElementsHandle, type ServiceElementsProps } from './service-elements';
export { ServiceExpressCheckout, type ServiceExpressCheckoutProps } from './service-express-checkout';
export type * from './sdk-types';
export type { ScriptSource } from './use-sdk-script';
