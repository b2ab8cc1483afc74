/**
 * The core of `ServiceFrontEndSDK` (docs/integrating.md#browser-sdks): everything the SDK decides, over one widget that an adapter mounts
 * (adapter.ts). It checks `config()`'s options and tells the facade what the page needs of them, refuses `init` after a
 * failed config, starts payments on the widget and reports their outcome, turns the widget's events into the facade's,
 * and writes the debug log's and visualizer's lines. Every mistake becomes an `error` event with a code from
 * SDK_ERROR_CODES. It never touches the merchant page: Elements runs it there (`localCore`), the iframe SDK in its
 * widget page, behind postMessage (sdk-link.ts).
 */
import type { Appearance, PaymentMethodName, SdkError, SdkMethodType, SdkPayOptions, Transaction } from '@svc/protocol';
import { parseWith, SdkConfigWire, SdkUpdateWire, type Parsed } from '@svc/protocol/light';
import { refusalsWarning, type Refusal } from '../shared/appearance-css';
import { SdkErrorException } from '../shared/sdk-errors';
import type { WidgetAdapter, WidgetConfig, WidgetEvents, WidgetHandle } from './adapter';
import { INIT_BEFORE_CONFIG, PAY_BEFORE_CONFIG, PAY_BEFORE_INIT, summary, VISUALIZER_ID, type Connect, type CoreCall, type CoreEvent } from './sdk-link';

interface Config {
  mode: 'sandbox' | 'production';
  clientId: string;
  methodType: SdkMethodType;
  debug: boolean;
  visualizer: boolean;
  payButtonId: string | undefined;
  appearance: Appearance | undefined;
  paymentMethods: PaymentMethodName[] | undefined;
  locale: string;
}

const OPTION_NAMES = 'mode, clientId, methodType, debug, visualizer, payButtonId, locale, appearance, paymentMethods';

function configMessage(parsed: Extract<Parsed<unknown>, { ok: false }>, options: unknown, method = 'config'): string {
  const value = parsed.path && typeof options === 'object' && options !== null ? (options as Record<string, unknown>)[parsed.path] : undefined;
  if (!parsed.path) return `ServiceFrontEndSDK.${method} needs an options object: { mode: 'sandbox' | 'production', clientId: 'ck_…' }.`;
  if (parsed.message === 'is not a known option') {
    return `ServiceFrontEndSDK.${method}: "${parsed.path}" is not a known option. The options are ${method === 'config' ? OPTION_NAMES : 'appearance'}.`;
  }
  if (value === undefined && !parsed.path.includes('.')) return `ServiceFrontEndSDK.${method}: ${parsed.path} is missing; it ${parsed.message}.`;
  return `ServiceFrontEndSDK.${method}: ${parsed.path} ${parsed.message}.`;
}

export interface SdkCoreOptions {
  /** The payment service's base URL (see detectApiBase). */
  apiBase: string;
  /** Puts the widget into its container. */
  adapter: WidgetAdapter;
  /** Takes the core's events (the facade, or the widget page's channel to it). */
  emit: (event: CoreEvent) => void;
  /**
   * The appearance checker, where the core runs beside it (the iframe SDK's widget page: frame/'s `checkAppearance`):
   * in debug mode the core warns about what it refuses. Elements' core, in the merchant page, has none: its element
   * warns about what its card frame refused.
   */
  checkLook?: ((appearance: Appearance) => { refusals: Refusal[] }) | undefined;
}

export interface SdkCore {
  /** `init`: false when refused (the config failed; reported). `replace` runs just before the widget is mounted. */
  init(target: HTMLElement, label: string, replace?: () => void): boolean;
  /** Removes the widget; whatever it still reports is ignored. */
  unmount(): void;
  handle(call: Exclude<CoreCall, { type: 'init' }>): void;
}

export function createSdkCore({ apiBase, adapter, emit, checkLook: checker }: SdkCoreOptions): SdkCore {
  let config: Config | null = null;
  let configFailed = false;
  let widget: WidgetHandle | null = null;
  /** Counts mounts; the events of an earlier widget are ignored. */
  let mounts = 0;
  /** The widget said paying true and not yet false. */
  let paying = false;
  /** The options of the last pay(): a click on the pay button pays with them (or with its own data-amount). */
  let lastOptions: SdkPayOptions | undefined;

  const log = (event: string, detail?: unknown): void => {
    if (config?.debug || config?.visualizer) emit(detail === undefined ? { type: 'log', event } : { type: 'log', event, detail });
  };

  function report(error: SdkError, debug = config?.debug === true): void {
    emit({ type: 'error', error, debug, logged: false });
  }

  function configure(options: unknown, replay: boolean): void {
    const parsed = parseWith(SdkConfigWire, options);
    if (!parsed.ok) {
      config = null;
      configFailed = true;
      emit({ type: 'configured', config: null });
      const debug = typeof options === 'object' && options !== null && (options as { debug?: unknown }).debug === true;
      if (!replay) report({ code: 'config_invalid', message: configMessage(parsed, options) }, debug);
      return;
    }
    const {
      mode,
      clientId,
      methodType = 'manual_capture',
      debug = false,
      visualizer = false,
      payButtonId,
      locale = 'auto',
      appearance,
      paymentMethods,
    } = parsed.value;
    config = { mode, clientId, methodType, debug, visualizer, payButtonId, locale, appearance, paymentMethods };
    configFailed = false;
    emit({ type: 'configured', config: { clientId, debug, visualizer, payButtonId: payButtonId ?? null } });
    if (!replay) {
      log('config', { mode, clientId, methodType, debug, visualizer, payButtonId, paymentMethods });
      checkLook(appearance);
    }
    widget?.configure(widgetConfig(config));
  }

  /** `update({ appearance })`: a mounted widget changes its look at once, keeping its session and what was typed. */
  function update(options: unknown): void {
    const parsed = parseWith(SdkUpdateWire, options);
    if (!parsed.ok) return report({ code: 'config_invalid', message: configMessage(parsed, options, 'update') });
    if (!config) return report({ code: 'not_configured', message: 'Call ServiceFrontEndSDK.config({ mode, clientId }) before update().' });
    if (!('appearance' in parsed.value)) return;
    config = { ...config, appearance: parsed.value.appearance };
    log('update', { appearance: config.appearance?.theme ?? 'default' });
    checkLook(config.appearance);
    widget?.configure(widgetConfig(config));
  }

  /** What the widget will refuse of an appearance, said once in the console in debug mode (and in the log). */
  function checkLook(appearance: Appearance | undefined): void {
    if (!appearance || !config?.debug || !checker) return;
    const { refusals } = checker(appearance);
    if (!refusals.length) return;
    log('appearance refused', refusals);
    warn('appearance-refused', refusalsWarning(refusals));
  }

  function widgetConfig({ clientId, mode, methodType, debug, locale, appearance, paymentMethods }: Config): WidgetConfig {
    return { apiBase, clientId, mode, methodType, debug, locale, ...(appearance && { appearance }), ...(paymentMethods && { paymentMethods }) };
  }

  function init(target: HTMLElement, label: string, replace?: () => void): boolean {
    if (!config) {
      report({
        code: 'not_configured',
        message: configFailed ? 'ServiceFrontEndSDK.config failed (see the config_invalid error); fix the options, then call init().' : INIT_BEFORE_CONFIG,
      });
      return false;
    }
    replace?.();
    unmount();
    widget = adapter.mount(target, widgetConfig(config), widgetEvents());
    log('init', { container: label });
    return true;
  }

  /** The events of the widget mounted now; once it is removed, whatever it still reports is ignored. */
  function widgetEvents(): WidgetEvents {
    const generation = ++mounts;
    const current =
      <T>(handler: (detail: T) => void) =>
      (detail: T): void => {
        if (generation === mounts) handler(detail);
      };
    return {
      ready: current((detail) => log('ready', detail)),
      paymentSelected: current(({ paymentMethod }) => emit({ type: 'paymentSelected', paymentMethod })),
      paying: current(({ isPaying }) => {
        paying = isPaying;
        emit({ type: 'paying', isPaying });
      }),
      validationStatus: current(({ isValid, errors }) => emit({ type: 'validation', isValid, errors: [...errors] })),
      dimensions: current(({ height, width }) => emit({ type: 'dimensions', height, width })),
      // The widget already logged it in debug mode.
      error: current((error) => emit({ type: 'error', error, debug: config?.debug === true, logged: true })),
      paymentSuccess: current((detail) => log('paymentSuccess', summary(detail.transaction))),
    };
  }

  function unmount(): void {
    mounts += 1;
    paying = false;
    widget?.destroy();
    widget = null;
  }

  function pay({ requestId, options, button, callback }: Extract<CoreCall, { type: 'pay' }>): void {
    const end = (transaction: Transaction | null = null): void => emit({ type: 'result', requestId, transaction });
    if (!button && !callback) {
      report({
        code: 'config_invalid',
        message: 'ServiceFrontEndSDK.pay(callback, options) needs a function as its first argument; it receives the transaction.',
      });
      return end();
    }
    if (!config || !widget) {
      report({ code: 'not_configured', message: config ? PAY_BEFORE_INIT : PAY_BEFORE_CONFIG });
      return end();
    }
    let payment = options as SdkPayOptions | undefined;
    if (button) {
      if (paying) {
        log('pay button: payment already started by the page');
        return end();
      }
      payment = buttonOptions(options as { amount?: string; currency?: string } | undefined);
      if (!callback && config.debug) {
        warn(
          'pay-without-callback',
          'The pay button was clicked before any pay(callback) call; the transaction is only in the svc-payment-success event. Call ServiceFrontEndSDK.pay(callback, options) from your own handler instead, or listen for svc-payment-success.',
        );
      }
      log('pay button clicked', payment ? { amount: payment.amount, currency: payment.currency } : undefined);
    } else {
      lastOptions = payment;
    }
    const target = widget;
    target.pay(payment).then(
      (transaction) => {
        if (target !== widget) {
          log('pay result of a removed widget ignored', summary(transaction));
          return end();
        }
        log('pay callback', summary(transaction));
        end(transaction);
      },
      (error: unknown) => {
        // An SdkErrorException was already delivered through the widget's error event; a removed widget's outcome was
        // reported by the facade when it was removed.
        if (!(error instanceof SdkErrorException) && target === widget) {
          report({ code: 'internal_error', message: `The payment failed unexpectedly (${String(error)}). Please report this to the payment service.` });
        }
        end();
      },
    );
  }

  /** The pay button's data-amount / data-currency, else the last pay() options. */
  function buttonOptions(data: { amount?: string; currency?: string } | undefined): SdkPayOptions | undefined {
    if (data?.amount === undefined) return lastOptions;
    return {
      amount: Number(data.amount),
      currency: data.currency ?? lastOptions?.currency ?? '',
      ...(lastOptions?.billingAddress ? { billingAddress: lastOptions.billingAddress } : {}),
    } as SdkPayOptions;
  }

  function warn(code: Extract<CoreEvent, { type: 'warning' }>['code'], message: string): void {
    emit({ type: 'warning', code, message });
  }

  function notFound(element: 'visualizer' | 'payButton'): void {
    if (element === 'visualizer') {
      return warn('visualizer-missing', `visualizer is on but the page has no element with id "${VISUALIZER_ID}"; add <div id="${VISUALIZER_ID}"></div>.`);
    }
    if (config?.debug && config.payButtonId) {
      warn(
        'pay-button-missing',
        `payButtonId is "${config.payButtonId}" but the page has no element with that id yet; clicks on it start the payment once it exists.`,
      );
    }
  }

  return {
    init,
    unmount,
    handle(call) {
      switch (call.type) {
        case 'config':
          return configure(call.options, call.replay);
        case 'update':
          return update(call.options);
        case 'pay':
          return pay(call);
        case 'notFound':
          return notFound(call.element);
        case 'notAFunction':
          return report({ code: 'config_invalid', message: `ServiceFrontEndSDK.${call.method}(callback) needs a function.` });
        case 'fault':
          return report({
            code: 'internal_error',
            message: `ServiceFrontEndSDK.${call.method} failed unexpectedly (${call.detail}). Please report this to the payment service.`,
          });
      }
    },
  };
}

/** Elements' link: the core in the merchant page, called directly (without the appearance checker: see `checkLook`). */
export function localCore(apiBase: string, adapter: WidgetAdapter): Connect {
  return (emit) => {
    const core = createSdkCore({ apiBase, adapter, emit });
    return {
      mount: (target, label, replace) => void core.init(target, label, replace),
      unmount: () => core.unmount(),
      call: (call) => core.handle(call),
    };
  };
}
