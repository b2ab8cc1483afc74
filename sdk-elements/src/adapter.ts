/**
 * Elements' widget for `ServiceFrontEndSDK` (sdk-core/host): one `<svc-ecom-sdk-elements>` in the container, its
 * `svc-*` events relayed to the SDK, `pay()` forwarded to the element.
 */
import type { Transaction } from '@svc/protocol';
import { createServiceFrontEndSDK, localEngine, type ServiceFrontEndSDK, type WidgetAdapter, type WidgetConfig, type WidgetEvents } from '@svc/sdk-core/host';
import type { SvcEcomSdkElements } from './components/svc-ecom-sdk-elements/svc-ecom-sdk-elements';
import { TAG } from './define';
import { ELEMENTS_VERSION } from './version';

function configure(element: SvcEcomSdkElements, config: WidgetConfig): void {
  element.clientId = config.clientId;
  element.mode = config.mode;
  element.methodType = config.methodType;
  element.debug = config.debug;
  element.apiBase = config.apiBase;
  element.appearance = config.appearance;
  element.paymentMethods = config.paymentMethods;
  element.locale = config.locale;
  element.maxInstallments = config.maxInstallments;
}

/** The element's events → the SDK's widget events; returns the function that removes the listeners. */
function relay(element: SvcEcomSdkElements, events: WidgetEvents): () => void {
  const handlers: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void } = {
    'svc-ready': (event) => events.ready(event.detail),
    'svc-payment-selected': (event) => events.paymentSelected(event.detail),
    'svc-paying': (event) => events.paying(event.detail),
    'svc-validation-status': (event) => events.validationStatus(event.detail),
    'svc-dimensions': (event) => events.dimensions(event.detail),
    'svc-error': (event) => events.error(event.detail),
    'svc-payment-success': (event) => events.paymentSuccess(event.detail),
  };
  const entries = Object.entries(handlers) as [string, EventListener][];
  for (const [type, handler] of entries) element.addEventListener(type, handler);
  return () => {
    for (const [type, handler] of entries) element.removeEventListener(type, handler);
  };
}

export const elementsAdapter: WidgetAdapter = {
  mount(container, config, events) {
    const element = container.ownerDocument.createElement(TAG);
    configure(element, config);
    const stopRelaying = relay(element, events);
    container.append(element);
    return {
      configure: (next) => configure(element, next),
      pay: (options): Promise<Transaction> => element.pay(options),
      destroy: () => {
        stopRelaying();
        element.remove();
      },
    };
  },
};

/** `window.ServiceFrontEndSDK` of Elements: sdk-core's SDK, facade and engine both in the page, over this adapter. */
export function createElementsSDK(doc: Document, apiBase: string): ServiceFrontEndSDK {
  return createServiceFrontEndSDK(doc, { version: ELEMENTS_VERSION, connect: localEngine(apiBase, elementsAdapter) });
}
