/**
 * `window.ServiceFrontEndSDK` (CONTRACT §12): config, init, the event subscriptions and pay, over one widget that the
 * SDK's adapter mounts (adapter.ts: Elements mounts its element, the iframe SDK an iframe). Nothing here throws into
 * the merchant's page: every mistake goes to the `error` callback with a code from SDK_ERROR_CODES (and to one console
 * warning in debug mode, or when no error callback is registered).
 */
import type { PaymentMethodName, SdkConfig, SdkError, SdkMethodType, SdkPayOptions, Transaction } from '@svc/protocol';
import { parseWith, SdkConfigWire } from '@svc/protocol/light';
import { SdkErrorException } from '../shared/sdk-errors';
import { debugLog, issueWarning } from '../shared/warnings';
import { Visualizer } from '../shared/visualizer';
import type { CardFieldError, WidgetAdapter, WidgetConfig, WidgetEvents, WidgetHandle } from './adapter';

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

interface Config {
  mode: 'sandbox' | 'production';
  clientId: string;
  methodType: SdkMethodType;
  debug: boolean;
  visualizer: boolean;
  payButtonId: string | undefined;
}

const OPTION_NAMES = 'mode, clientId, methodType, debug, visualizer, payButtonId';
const CONTAINER_ID = 'service-front-end';
const VISUALIZER_ID = 'service-front-end-visualizer';

/** A merchant callback that throws must not break the SDK: its error is reported to the page as uncaught. */
function safeCall<T>(callback: Callback<T>, payload: T): void {
  try {
    callback(payload);
  } catch (error) {
    if (typeof reportError === 'function') reportError(error);
    else setTimeout(() => { throw error; });
  }
}

const summary = (transaction: Transaction) => ({ transactionNumber: transaction.TransactionNumber, status: transaction.status, statusName: transaction.statusName });

export interface ServiceFrontEndSDKOptions {
  /** The payment service's base URL (see detectApiBase). */
  apiBase: string;
  /** The SDK's version, `ServiceFrontEndSDK.version`. */
  version: string;
  /** Puts the widget on the page. */
  adapter: WidgetAdapter;
}

export function createServiceFrontEndSDK(doc: Document, { apiBase, version, adapter }: ServiceFrontEndSDKOptions): ServiceFrontEndSDK {
  let config: Config | null = null;
  let configFailed = false;
  let widget: WidgetHandle | null = null;
  let removeButtonListener: (() => void) | null = null;
  /** The merchant's paying callback said true and not yet false for the mounted widget. */
  let widgetPaying = false;
  /** Widgets removed during a payment: their outcome was reported when they were removed (see unmount). */
  const interrupted = new WeakSet<WidgetHandle>();
  /** Counts mounts; the events of an earlier widget are ignored. */
  let mounts = 0;
  let visualizer: Visualizer | null = null;
  let lastDimensions: { height: number; width: number } | null = null;
  let lastPay: { callback?: Callback<Transaction>; options?: SdkPayOptions } = {};
  const subscriptions: Subscriptions = {};
  const undelivered: SdkError[] = [];

  const log = (event: string, detail?: unknown): void => {
    if (config?.debug) debugLog('ServiceFrontEndSDK', event, detail);
    visualizer?.add(event, detail);
  };

  /** Errors found by the SDK itself; the widget's own errors arrive through its `error` event (see widgetEvents). */
  function report(error: SdkError, debug = config?.debug === true): void {
    log('error', error);
    deliver(error, debug);
  }

  function deliver(error: SdkError, debug: boolean): void {
    if (debug || !subscriptions.error) issueWarning(error.code, error.message);
    if (subscriptions.error) safeCall(subscriptions.error, { ...error });
    else if (undelivered.push(error) > 20) undelivered.shift();
  }

  /** Wraps a public method: whatever happens inside, nothing is thrown at the caller. */
  function guarded<A extends unknown[]>(name: string, body: (...args: A) => void): (...args: A) => void {
    return (...args: A) => {
      try {
        body(...args);
      } catch (error) {
        report({ code: 'internal_error', message: `ServiceFrontEndSDK.${name} failed unexpectedly (${String(error)}). Please report this to the payment service.` });
      }
    };
  }

  function subscribe<K extends keyof Subscriptions>(name: K) {
    return guarded(name, (callback: NonNullable<Subscriptions[K]>) => {
      if (typeof callback !== 'function') {
        report({ code: 'config_invalid', message: `ServiceFrontEndSDK.${name}(callback) needs a function.` });
        return;
      }
      subscriptions[name] = callback;
      if (name === 'frameDimensions' && lastDimensions) safeCall(callback as Callback<{ height: number; width: number }>, { ...lastDimensions });
      if (name === 'error' && undelivered.length) {
        const queued = undelivered.splice(0);
        queueMicrotask(() => queued.forEach((error) => subscriptions.error && safeCall(subscriptions.error, { ...error })));
      }
    });
  }

  function configure(options: unknown): void {
    const parsed = parseWith(SdkConfigWire, options);
    if (!parsed.ok) {
      config = null;
      configFailed = true;
      const value = parsed.path && typeof options === 'object' && options !== null ? (options as Record<string, unknown>)[parsed.path] : undefined;
      let message: string;
      if (!parsed.path) message = `ServiceFrontEndSDK.config needs an options object: { mode: 'sandbox' | 'production', clientId: 'ck_…' }.`;
      else if (parsed.message === 'is not a known option') message = `ServiceFrontEndSDK.config: "${parsed.path}" is not a known option. The options are ${OPTION_NAMES}.`;
      else if (value === undefined) message = `ServiceFrontEndSDK.config: ${parsed.path} is missing; it ${parsed.message}.`;
      else message = `ServiceFrontEndSDK.config: ${parsed.path} ${parsed.message}.`;
      const debug = typeof options === 'object' && options !== null && (options as { debug?: unknown }).debug === true;
      report({ code: 'config_invalid', message }, debug);
      return;
    }
    const { mode, clientId, methodType = 'manual_capture', debug = false, visualizer: visual = false, payButtonId } = parsed.value;
    config = { mode, clientId, methodType, debug, visualizer: visual, payButtonId };
    configFailed = false;
    setUpVisualizer();
    log('config', { mode, clientId, methodType, debug, visualizer: visual, payButtonId });
    widget?.configure(widgetConfig(config));
    bindPayButton();
  }

  function setUpVisualizer(): void {
    visualizer?.remove();
    visualizer = null;
    if (!config?.visualizer) return;
    const container = doc.getElementById(VISUALIZER_ID);
    if (container) visualizer = new Visualizer(container);
    else issueWarning('visualizer-missing', `visualizer is on but the page has no element with id "${VISUALIZER_ID}"; add <div id="${VISUALIZER_ID}"></div>.`);
  }

  function widgetConfig({ clientId, mode, methodType, debug }: Config): WidgetConfig {
    return { apiBase, clientId, mode, methodType, debug };
  }

  function resolveContainer(container: unknown): HTMLElement | null {
    if (container === undefined || container === null) return doc.getElementById(CONTAINER_ID);
    if (typeof container === 'string') return doc.getElementById(container.replace(/^#/, ''));
    return container instanceof HTMLElement ? container : null;
  }

  function mount(container?: HTMLElement | string): void {
    if (!config) {
      report({
        code: 'not_configured',
        message: configFailed
          ? 'ServiceFrontEndSDK.config failed (see the config_invalid error); fix the options, then call init().'
          : "Call ServiceFrontEndSDK.config({ mode, clientId }) before init().",
      });
      return;
    }
    const target = resolveContainer(container);
    if (!target) {
      report({
        code: 'container_not_found',
        message:
          container === undefined
            ? `No element with id "${CONTAINER_ID}" on the page. Add <div id="${CONTAINER_ID}"></div> or pass the container: init(element).`
            : 'init(container): the container must be an element on the page (or its id).',
      });
      return;
    }
    unmount();
    widget = adapter.mount(target, widgetConfig(config), widgetEvents());
    bindPayButton();
    log('init', { container: target.id || target.tagName.toLowerCase() });
  }

  /** The events of the widget mounted now; once it is removed (see unmount), whatever it still reports is ignored. */
  function widgetEvents(): WidgetEvents {
    const generation = ++mounts;
    const current = <T>(handler: (detail: T) => void) => (detail: T): void => {
      if (generation === mounts) handler(detail);
    };
    return {
      ready: current((detail) => log('ready', detail)),
      paymentSelected: current((detail) => {
        log('paymentSelected', detail);
        if (subscriptions.paymentSelected) safeCall(subscriptions.paymentSelected, { ...detail });
      }),
      paying: current((detail) => {
        widgetPaying = detail.isPaying;
        log('paying', detail);
        if (subscriptions.paying) safeCall(subscriptions.paying, { ...detail });
      }),
      validationStatus: current((detail) => {
        log('paymentMethodValidationStatus', detail);
        if (subscriptions.paymentMethodValidationStatus) safeCall(subscriptions.paymentMethodValidationStatus, { isValid: detail.isValid, errors: [...detail.errors] });
      }),
      dimensions: current((detail) => {
        lastDimensions = { ...detail };
        log('frameDimensions', detail);
        if (subscriptions.frameDimensions) safeCall(subscriptions.frameDimensions, { ...detail });
      }),
      error: current((error) => {
        visualizer?.add('error', error); // the widget already logged it in debug mode
        deliver(error, config?.debug === true);
      }),
      paymentSuccess: current((detail) => log('paymentSuccess', summary(detail.transaction))),
    };
  }

  /**
   * Removes the widget and its listeners. A payment in progress ends here for the merchant: its error and
   * paying(false) would come from the widget after it is gone, so they are delivered now instead, and whatever the
   * removed widget settles with later is ignored (an accepted payment is never committed).
   */
  function unmount(): void {
    const removed = widget;
    const wasPaying = widgetPaying;
    mounts += 1; // the removed widget's events fall silent
    removed?.destroy();
    widget = null;
    widgetPaying = false;
    lastDimensions = null;
    if (!removed || !wasPaying) return;
    interrupted.add(removed);
    report({
      code: 'frame_unavailable',
      message: 'The widget was removed (ServiceFrontEndSDK.init() or destroy()) while a payment was in progress, so the payment did not complete. Wait for paying({ isPaying: false }) before init() or destroy(), then pay again.',
    });
    log('paying', { isPaying: false });
    if (subscriptions.paying) safeCall(subscriptions.paying, { isPaying: false });
  }

  function startPayment(callback: Callback<Transaction> | undefined, options: SdkPayOptions | undefined): void {
    const target = widget!;
    target.pay(options).then(
      (transaction) => {
        if (interrupted.has(target)) {
          log('pay result of a removed widget ignored', summary(transaction));
          return;
        }
        log('pay callback', summary(transaction));
        if (callback) safeCall(callback, transaction);
      },
      (error: unknown) => {
        // An SdkErrorException was already delivered through the widget's error event (or by unmount).
        if (!(error instanceof SdkErrorException) && !interrupted.has(target)) {
          report({ code: 'internal_error', message: `The payment failed unexpectedly (${String(error)}). Please report this to the payment service.` });
        }
      },
    );
  }

  function pay(callback: Callback<Transaction>, options?: SdkPayOptions): void {
    if (typeof callback !== 'function') {
      report({ code: 'config_invalid', message: 'ServiceFrontEndSDK.pay(callback, options) needs a function as its first argument; it receives the transaction.' });
      return;
    }
    if (!config || !widget) {
      report({ code: 'not_configured', message: config ? 'Call ServiceFrontEndSDK.init() before pay().' : 'Call ServiceFrontEndSDK.config({ mode, clientId }) and init() before pay().' });
      return;
    }
    lastPay = { callback, ...(options === undefined ? {} : { options }) };
    startPayment(callback, options);
  }

  /** payButtonId: a click starts a payment with the button's data-amount / data-currency, else the last pay() options. */
  function bindPayButton(): void {
    removeButtonListener?.();
    removeButtonListener = null;
    const id = config?.payButtonId;
    if (!id || !widget) return;
    if (!doc.getElementById(id) && config?.debug) {
      issueWarning('pay-button-missing', `payButtonId is "${id}" but the page has no element with that id yet; clicks on it start the payment once it exists.`);
    }
    const onClick = (event: MouseEvent): void => {
      const button = event.target instanceof Element ? event.target.closest(`#${CSS.escape(id)}`) : null;
      if (!button || !widget) return;
      event.preventDefault(); // a pay button inside a form must not submit it
      if (widgetPaying) {
        log('pay button: payment already started by the page');
        return;
      }
      const data = (button as HTMLElement).dataset;
      const options: SdkPayOptions | undefined =
        data['amount'] !== undefined
          ? ({ amount: Number(data['amount']), currency: data['currency'] ?? lastPay.options?.currency ?? '', ...(lastPay.options?.billingAddress ? { billingAddress: lastPay.options.billingAddress } : {}) } as SdkPayOptions)
          : lastPay.options;
      if (!lastPay.callback && config?.debug) {
        issueWarning('pay-without-callback', 'The pay button was clicked before any pay(callback) call; the transaction is only in the svc-payment-success event. Call ServiceFrontEndSDK.pay(callback, options) from your own handler instead, or listen for svc-payment-success.');
      }
      log('pay button clicked', options ? { amount: options.amount, currency: options.currency } : undefined);
      startPayment(lastPay.callback, options);
    };
    doc.addEventListener('click', onClick);
    removeButtonListener = () => doc.removeEventListener('click', onClick);
  }

  return {
    version,
    config: guarded('config', configure),
    init: guarded('init', mount),
    frameDimensions: subscribe('frameDimensions'),
    paymentSelected: subscribe('paymentSelected'),
    paying: subscribe('paying'),
    paymentMethodValidationStatus: subscribe('paymentMethodValidationStatus'),
    error: subscribe('error'),
    pay: guarded('pay', pay),
    destroy: guarded('destroy', () => {
      unmount();
      removeButtonListener?.();
      removeButtonListener = null;
      visualizer?.remove();
      visualizer = null;
    }),
  };
}
