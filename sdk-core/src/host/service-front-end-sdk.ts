/**
 * `window.ServiceFrontEndSDK` (docs/integrating.md#browser-sdks): the facade, what must live in the merchant page. It
 * keeps the merchant's callbacks, finds the container, hooks up the pay button (pay-button.ts), draws the visualizer's
 * list and writes the debug log, and hands every call to the SDK's engine (sdk-engine.ts) through a link (sdk-link.ts):
 * Elements runs the engine in the page, the iframe SDK in its widget page. The engine checks the options and says what
 * went wrong; the facade only reports what it alone can see (init before config, no container, pay before init, the
 * widget removed during a payment). Nothing here throws into the merchant's page: every mistake goes to the `error`
 * callback with a code from SDK_ERROR_CODES (and to one console warning in debug mode, or when no error callback is
 * registered).
 *
 * A closure, not a class: it is most of the iframe SDK's loader, held to 5 KB gzip, where a class costs about 110 bytes
 * more (every `this.#field`; sdk-iframe/README.md#size has the measurements).
 */
import type { PaymentMethodName, SdkConfig, SdkError, SdkPayOptions, SdkUpdate, Transaction, WidgetToLoaderMessage } from '@svc/protocol';
import { debugLog, issueWarning } from '../shared/warnings';
import { createVisualizer, type Visualizer } from '../shared/visualizer';
import type { CardFieldError } from './adapter';
import { listenToPayButton } from './pay-button';
import { INIT_BEFORE_CONFIG, PAY_BEFORE_CONFIG, PAY_BEFORE_INIT, VISUALIZER_ID, type Connect, type EngineEvent } from './sdk-link';

type Callback<T> = (payload: T) => void;

interface Subscriptions {
  frameDimensions?: Callback<{ height: number; width: number }>;
  paymentSelected?: Callback<{ paymentMethod: PaymentMethodName }>;
  paying?: Callback<{ isPaying: boolean }>;
  paymentMethodValidationStatus?: Callback<{ isValid: boolean; errors: CardFieldError[] }>;
  error?: Callback<SdkError>;
}

export interface ServiceFrontEndSDK {
  readonly version: string;
  config(options: SdkConfig): void;
  /** Changes a configured widget's `appearance` at once, keeping its session and what the shopper typed. */
  update(options: SdkUpdate): void;
  init(container?: HTMLElement | string): void;
  frameDimensions(callback: NonNullable<Subscriptions['frameDimensions']>): void;
  paymentSelected(callback: NonNullable<Subscriptions['paymentSelected']>): void;
  paying(callback: NonNullable<Subscriptions['paying']>): void;
  paymentMethodValidationStatus(callback: NonNullable<Subscriptions['paymentMethodValidationStatus']>): void;
  error(callback: NonNullable<Subscriptions['error']>): void;
  pay(callback: Callback<Transaction>, options?: SdkPayOptions): void;
  /** Removes the widget and every listener the SDK added to the page (not part of the spec; for single-page apps). */
  destroy(): void;
}

/** What the page needs of a checked config. */
type PageConfig = Extract<WidgetToLoaderMessage, { type: 'configured' }>['config'];

const CONTAINER_ID = 'service-front-end';

/** A merchant callback that throws must not break the SDK: its error is reported to the page as uncaught. */
function safeCall<T>(callback: Callback<T>, payload: T): void {
  try {
    callback(payload);
  } catch (error) {
    if (typeof reportError === 'function') reportError(error);
    else
      setTimeout(() => {
        throw error;
      });
  }
}

export interface ServiceFrontEndSDKOptions {
  /** The SDK's version, `ServiceFrontEndSDK.version`. */
  version: string;
  /** Reaches the SDK's engine: `localEngine(apiBase, adapter)` (sdk-engine.ts) or the iframe SDK's link to its widget page. */
  connect: Connect;
}

export function createServiceFrontEndSDK(doc: Document, { version, connect }: ServiceFrontEndSDKOptions): ServiceFrontEndSDK {
  /** `called`: config() was called and no engine has checked its options yet (the iframe SDK before init). */
  let state: 'none' | 'called' | 'ok' | 'failed' = 'none';
  let config: PageConfig = null;
  let mounted = false;
  let stopPayButton: (() => void) | null = null;
  /** The merchant's paying callback said true and not yet false for the mounted widget. */
  let widgetPaying = false;
  let visualizer: Visualizer | null = null;
  let lastDimensions: { height: number; width: number } | null = null;
  /** The callback of the last pay(): a click on the pay button gives its transaction to it. */
  let lastCallback: Callback<Transaction> | undefined;
  /** pay() was called in this task: a click on the pay button whose own handler called pay() is that one payment. */
  let payCalledNow = false;
  let requests = 0;
  /**
   * Payments started, by request id, with the callback their transaction goes to. A removed widget's are forgotten:
   * their outcome was reported when it was removed (see unmount), and what it settles with later is ignored.
   */
  const pending = new Map<string, Callback<Transaction> | undefined>();
  const subscriptions: Subscriptions = {};
  const undelivered: SdkError[] = [];

  const log = (event: string, detail?: unknown, toConsole = true): void => {
    if (toConsole && config?.debug) debugLog('ServiceFrontEndSDK', event, detail);
    visualizer?.add(event, detail);
  };

  /** Errors found here; the engine's arrive as its `error` events. */
  function report(error: SdkError): void {
    log('error', error);
    deliver(error, config?.debug === true);
  }

  function deliver(error: SdkError, debug: boolean): void {
    if (debug || !subscriptions.error) issueWarning(error.code, error.message);
    if (subscriptions.error) safeCall(subscriptions.error, { ...error });
    else if (undelivered.push(error) > 20) undelivered.shift();
  }

  function relay<K extends keyof Subscriptions>(name: K, payload: Parameters<NonNullable<Subscriptions[K]>>[0], event: string = name): void {
    log(event, payload);
    const callback = subscriptions[name] as Callback<typeof payload> | undefined;
    if (callback) safeCall(callback, payload);
  }

  const link = connect((event: EngineEvent): void => {
    switch (event.type) {
      case 'configured':
        return applyConfig(event.config);
      case 'log':
        return log(event.event, event.detail);
      case 'error':
        log('error', event.error, !event.logged);
        return deliver(event.error, event.debug);
      case 'warning':
        return issueWarning(event.code, event.message);
      case 'paymentSelected':
        return relay('paymentSelected', { paymentMethod: event.paymentMethod });
      case 'paying':
        widgetPaying = event.isPaying;
        return relay('paying', { isPaying: event.isPaying });
      case 'validation':
        return relay('paymentMethodValidationStatus', { isValid: event.isValid, errors: event.errors });
      case 'dimensions':
        // Real sizes only: a widget not drawn yet (the iframe SDK's iframe before its page said how tall it is) is 0 px.
        if (!event.height || !event.width) return;
        lastDimensions = { height: event.height, width: event.width };
        return relay('frameDimensions', { ...lastDimensions }, 'frameDimensions');
      case 'result':
        return settle(event.requestId, event.transaction);
      case 'unmounted':
        return unmount();
    }
  });

  /** Wraps a public method: whatever happens inside, nothing is thrown at the caller. */
  function guarded<A extends unknown[]>(name: string, body: (...args: A) => void): (...args: A) => void {
    return (...args: A) => {
      try {
        body(...args);
      } catch (error) {
        try {
          link.call({ type: 'fault', method: name, detail: String(error) });
        } catch {
          // The page gets nothing thrown at it, even when the report fails too.
        }
      }
    };
  }

  function subscribe<K extends keyof Subscriptions>(name: K) {
    return guarded(name, (callback: NonNullable<Subscriptions[K]>) => {
      if (typeof callback !== 'function') return link.call({ type: 'notAFunction', method: name });
      subscriptions[name] = callback;
      if (name === 'frameDimensions' && lastDimensions) safeCall(callback as Callback<{ height: number; width: number }>, { ...lastDimensions });
      if (name === 'error' && undelivered.length) {
        const queued = undelivered.splice(0);
        queueMicrotask(() => queued.forEach((error) => subscriptions.error && safeCall(subscriptions.error, { ...error })));
      }
    });
  }

  function applyConfig(next: PageConfig): void {
    state = next ? 'ok' : 'failed';
    config = next;
    if (!next) return;
    visualizer?.remove();
    visualizer = null;
    if (next.visualizer) {
      const container = doc.getElementById(VISUALIZER_ID);
      if (container) visualizer = createVisualizer(container);
      else link.call({ type: 'notFound', element: 'visualizer' });
    }
    bindPayButton();
  }

  function resolveContainer(container: unknown): HTMLElement | null {
    if (container === undefined || container === null) return doc.getElementById(CONTAINER_ID);
    if (typeof container === 'string') return doc.getElementById(container.replace(/^#/, ''));
    return container instanceof HTMLElement ? container : null;
  }

  function init(container?: HTMLElement | string): void {
    if (state === 'none') return report({ code: 'not_configured', message: INIT_BEFORE_CONFIG });
    const target = resolveContainer(container);
    if (!target) {
      return report({
        code: 'container_not_found',
        message:
          container === undefined
            ? `No element with id "${CONTAINER_ID}" on the page. Add <div id="${CONTAINER_ID}"></div> or pass the container: init(element).`
            : 'init(container): the container must be an element on the page (or its id).',
      });
    }
    link.mount(target, target.id || target.tagName.toLowerCase(), () => {
      unmount();
      mounted = true;
      bindPayButton();
    });
  }

  /**
   * Removes the widget. A payment in progress ends here for the merchant: its error and paying(false) would come from
   * the widget after it is gone, so they are delivered now instead, and whatever the removed widget settles with later
   * is ignored (an accepted payment is never committed).
   */
  function unmount(): void {
    const wasPaying = mounted && widgetPaying;
    link.unmount();
    stopPayButton?.();
    stopPayButton = null;
    mounted = false;
    widgetPaying = false;
    lastDimensions = null;
    pending.clear();
    if (!wasPaying) return;
    report({
      code: 'frame_unavailable',
      message:
        'The widget was removed during a payment, which did not complete. Wait for paying({ isPaying: false }) before init(), destroy() or removing the container; then pay again.',
    });
    relay('paying', { isPaying: false });
  }

  function startPayment(callback: Callback<Transaction> | undefined, options: unknown, button: boolean): void {
    const requestId = String(++requests);
    pending.set(requestId, callback);
    link.call({ type: 'pay', requestId, options, button, callback: callback !== undefined });
  }

  function settle(requestId: string, transaction: Transaction | null): void {
    const callback = pending.get(requestId);
    if (pending.delete(requestId) && transaction && callback) safeCall(callback, transaction);
  }

  function pay(callback: Callback<Transaction>, options?: SdkPayOptions): void {
    if (typeof callback !== 'function') return link.call({ type: 'pay', requestId: '0', options, button: false, callback: false });
    if (!mounted) return report({ code: 'not_configured', message: state === 'none' || state === 'failed' ? PAY_BEFORE_CONFIG : PAY_BEFORE_INIT });
    lastCallback = callback;
    if (!payCalledNow) {
      payCalledNow = true;
      setTimeout(() => (payCalledNow = false));
    }
    startPayment(callback, options, false);
  }

  /** `payButtonId`, once a widget is mounted: a click starts a payment, unless the page's own handler called pay(). */
  function bindPayButton(): void {
    stopPayButton?.();
    stopPayButton = null;
    const id = config?.payButtonId;
    if (!id || !mounted) return;
    if (!doc.getElementById(id)) link.call({ type: 'notFound', element: 'payButton' });
    stopPayButton = listenToPayButton(doc, id, (data) => {
      // The page's own click handler already called pay(): accepted or refused, this click was that payment.
      if (!payCalledNow) startPayment(lastCallback, data, true);
    });
  }

  return {
    version,
    config: guarded('config', (options: unknown) => {
      state = 'called';
      link.call({ type: 'config', options, replay: false });
    }),
    update: guarded('update', (options: unknown) => link.call({ type: 'update', options })),
    init: guarded('init', init),
    frameDimensions: subscribe('frameDimensions'),
    paymentSelected: subscribe('paymentSelected'),
    paying: subscribe('paying'),
    paymentMethodValidationStatus: subscribe('paymentMethodValidationStatus'),
    error: subscribe('error'),
    pay: guarded('pay', pay),
    destroy: guarded('destroy', () => {
      unmount();
      visualizer?.remove();
      visualizer = null;
    }),
  };
}
