// @vitest-environment jsdom
import { act, createElement, createRef, StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServiceElements, ServiceExpressCheckout, type ServiceElementsHandle } from './index';

/**
 * The components in React's strict mode (every effect mounted, unmounted and mounted again), over stand-ins of the
 * two elements that count what the components do to them: how often they are connected, which listeners are on them,
 * what was set. The SDK scripts count as loaded (the global and the tag are there), so no script is added.
 */
class CountingElement extends HTMLElement {
  connected = 0;
  readonly listeners = new Map<string, Set<EventListenerOrEventListenerObject>>();
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject) {
    this.listeners.set(type, (this.listeners.get(type) ?? new Set()).add(listener));
    super.addEventListener(type, listener);
  }
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject) {
    this.listeners.get(type)?.delete(listener);
    super.removeEventListener(type, listener);
  }
  connectedCallback() {
    this.connected += 1;
  }
  listening(): Record<string, number> {
    return Object.fromEntries([...this.listeners].filter(([, set]) => set.size).map(([type, set]) => [type, set.size]));
  }
}
class ElementsStandIn extends CountingElement {
  clientId = '';
  paid: unknown[] = [];
  pay(options: unknown) {
    this.paid.push(options);
    return Promise.resolve({ TransactionNumber: 'T1', status: 10 });
  }
  reset() {}
}
class ExpressStandIn extends CountingElement {
  readonly given: unknown[] = [];
  set props(value: unknown) {
    this.given.push(value);
  }
}

let root: Root;
let container: HTMLElement;
beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  customElements.define('svc-ecom-sdk-elements', ElementsStandIn);
  customElements.define('svc-ecom-sdk-express', ExpressStandIn);
  (window as { ServiceFrontEndSDK?: unknown }).ServiceFrontEndSDK = { version: '1.1.1' };
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

async function render(node: ReturnType<typeof createElement>) {
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
  await act(async () => root.render(createElement(StrictMode, null, node)));
}
const only = <T extends Element>(tag: string) => {
  const found = container.querySelectorAll(tag);
  expect(found).toHaveLength(1);
  return found[0] as unknown as T;
};
const BASE = { baseUrl: 'https://pay.example.com' };

describe('<ServiceElements> in strict mode', () => {
  it('mounts one element with the options, one listener per event, and calls the handler of the latest render once', async () => {
    const first = vi.fn();
    const latest = vi.fn();
    const props = { ...BASE, clientId: 'ck_one', mode: 'sandbox' as const, paymentMethods: ['card' as const] };
    await render(createElement(ServiceElements, { ...props, onPaymentSuccess: first }));
    const widget = only<ElementsStandIn>('svc-ecom-sdk-elements');
    expect(widget).toMatchObject({ connected: 1, clientId: 'ck_one', mode: 'sandbox', methodType: 'manual_capture', paymentMethods: ['card'] });
    expect(widget.listening()).toEqual({
      'svc-ready': 1,
      'svc-payment-selected': 1,
      'svc-paying': 1,
      'svc-validation-status': 1,
      'svc-error': 1,
      'svc-dimensions': 1,
      'svc-payment-success': 1,
    });
    await act(async () =>
      root.render(createElement(StrictMode, null, createElement(ServiceElements, { ...props, clientId: 'ck_two', onPaymentSuccess: latest }))),
    );
    expect(only('svc-ecom-sdk-elements')).toBe(widget);
    expect(widget.clientId).toBe('ck_two');
    expect(widget.listening()['svc-payment-success']).toBe(1);
    widget.dispatchEvent(new CustomEvent('svc-payment-success', { detail: { transaction: { TransactionNumber: 'T1' } } }));
    expect(first).not.toHaveBeenCalled();
    expect(latest).toHaveBeenCalledExactlyOnceWith({ transaction: { TransactionNumber: 'T1' } });
  });

  it('passes maxInstallments to the widget, which asks the session for it; none when left out', async () => {
    const props = { ...BASE, clientId: 'ck_one', mode: 'sandbox' as const };
    await render(createElement(ServiceElements, { ...props, maxInstallments: 4 }));
    const widget = only<ElementsStandIn & { maxInstallments?: number }>('svc-ecom-sdk-elements');
    expect(widget.maxInstallments).toBe(4);
    await act(async () => root.render(createElement(StrictMode, null, createElement(ServiceElements, { ...props, maxInstallments: 6 }))));
    expect(widget.maxInstallments).toBe(6);
    await act(async () => root.render(createElement(StrictMode, null, createElement(ServiceElements, props))));
    expect(widget.maxInstallments).toBeUndefined();
  });

  it("gives the widget's pay() through a ref, and leaves no listener behind once unmounted", async () => {
    const ref = createRef<ServiceElementsHandle>();
    await render(createElement(ServiceElements, { ...BASE, ref, clientId: 'ck_one', mode: 'sandbox', onError: vi.fn() }));
    const widget = only<ElementsStandIn>('svc-ecom-sdk-elements');
    await expect(ref.current!.pay({ amount: 2500, currency: 'USD' })).resolves.toMatchObject({ TransactionNumber: 'T1' });
    expect(widget.paid).toEqual([{ amount: 2500, currency: 'USD' }]);
    act(() => root.unmount());
    root = createRoot(container); // for afterEach
    expect(widget.listening()).toEqual({});
  });
});

describe('<ServiceExpressCheckout> in strict mode', () => {
  it('sets props once per change of a value (not of a handler), listens once per event, and calls the latest handler', async () => {
    const onPay = vi.fn();
    const props = { ...BASE, clientId: 'ck_one', amount: '25.00', currency: 'USD', mode: 'sandbox' as const };
    await render(createElement(ServiceExpressCheckout, { ...props, onPay: vi.fn() }));
    const buttons = only<ExpressStandIn>('svc-ecom-sdk-express');
    expect(buttons.connected).toBe(1);
    expect(buttons.listening()).toEqual({ 'svc-ready': 1, 'svc-show': 1, 'svc-pay': 1, 'svc-error': 1 });
    const set = buttons.given.length;
    expect(buttons.given.at(-1)).toEqual({ clientId: 'ck_one', amount: '25.00', currency: 'USD', mode: 'sandbox' });
    await act(async () => root.render(createElement(StrictMode, null, createElement(ServiceExpressCheckout, { ...props, onPay }))));
    expect(buttons.given).toHaveLength(set);
    await act(async () => root.render(createElement(StrictMode, null, createElement(ServiceExpressCheckout, { ...props, amount: '30.00', onPay }))));
    expect(buttons.given.at(-1)).toMatchObject({ amount: '30.00' });
    buttons.dispatchEvent(new CustomEvent('svc-pay', { detail: { transactionNumber: 'T2', method: 'paypal' } }));
    expect(onPay).toHaveBeenCalledExactlyOnceWith({ transactionNumber: 'T2', method: 'paypal' });
    expect(buttons.listening()['svc-pay']).toBe(1);
  });
});
