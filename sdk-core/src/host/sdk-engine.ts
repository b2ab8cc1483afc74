/**
 * The engine of `ServiceFrontEndSDK` (docs/integrating.md#browser-sdks): everything the SDK decides, over one widget that
 * an adapter mounts (adapter.ts). It checks `config()`'s options (config-check.ts) and tells the facade what the page
 * needs of them, refuses `init` after a failed config, starts payments on the widget and reports their outcome, turns
 * the widget's events into the facade's, and writes the debug log's and visualizer's lines. Every mistake becomes an
 * `error` event with a code from SDK_ERROR_CODES. It never touches the merchant page: Elements runs it there
 * (`localEngine`), the iframe SDK in its widget page, behind postMessage (sdk-link.ts).
 */
import type { Appearance, SdkError, SdkPayOptions, Transaction } from '@svc/protocol';
import { refusalsWarning, type Refusal } from '../shared/appearance-css';
import { SdkErrorException } from '../shared/sdk-errors';
import type { WidgetAdapter, WidgetConfig, WidgetEvents, WidgetHandle } from './adapter';
import { asksForDebug, checkConfig, checkUpdate, type EngineConfig } from './config-check';
import { INIT_BEFORE_CONFIG, PAY_BEFORE_CONFIG, PAY_BEFORE_INIT, summary, VISUALIZER_ID, type Connect, type EngineCall, type EngineEvent } from './sdk-link';

export interface SdkEngineOptions {
  /** The payment service's base URL (see detectApiBase). */
  apiBase: string;
  /** Puts the widget into its container. */
  adapter: WidgetAdapter;
  /** Takes the engine's events (the facade, or the widget page's channel to it). */
  emit: (event: EngineEvent) => void;
  /**
   * The appearance checker, where the engine runs beside it (the iframe SDK's widget page: frame/'s `checkAppearance`,
   * from the lazy script it loads when an appearance is given): in debug mode the engine warns about what it refuses,
   * once the checker has answered (nothing when it could not be loaded: the widget logs that). Elements' engine, in the
   * merchant page, has none: its element warns about what its card frame refused.
   */
  checkLook?: ((appearance: Appearance) => Promise<{ refusals: Refusal[] }>) | undefined;
}

type PayCall = Extract<EngineCall, { type: 'pay' }>;
type ButtonData = { amount?: string; currency?: string } | undefined;

export class SdkEngine {
  #config: EngineConfig | null = null;
  #configFailed = false;
  #widget: WidgetHandle | null = null;
  /** Counts mounts; the events of an earlier widget are ignored. */
  #mounts = 0;
  /** The widget said paying true and not yet false. */
  #paying = false;
  /** The options of the last pay(): a click on the pay button pays with them (or with its own data-amount). */
  #lastOptions: SdkPayOptions | undefined;

  constructor(private readonly options: SdkEngineOptions) {}

  /** `init`: false when refused (the config failed; reported). `replace` runs just before the widget is mounted. */
  init(target: HTMLElement, label: string, replace?: () => void): boolean {
    const config = this.#config;
    if (!config) {
      this.#report({
        code: 'not_configured',
        message: this.#configFailed
          ? 'ServiceFrontEndSDK.config failed (see the config_invalid error); fix the options, then call init().'
          : INIT_BEFORE_CONFIG,
      });
      return false;
    }
    replace?.();
    this.unmount();
    this.#widget = this.options.adapter.mount(target, this.#widgetConfig(config), this.#widgetEvents());
    this.#log('init', { container: label });
    return true;
  }

  /** Removes the widget; whatever it still reports is ignored. */
  unmount(): void {
    this.#mounts += 1;
    this.#paying = false;
    this.#widget?.destroy();
    this.#widget = null;
  }

  /** Every call of the facade but `init`. */
  handle(call: Exclude<EngineCall, { type: 'init' }>): void {
    switch (call.type) {
      case 'config':
        return this.#configure(call.options, call.replay);
      case 'update':
        return this.#update(call.options);
      case 'pay':
        return this.#pay(call);
      case 'notFound':
        return this.#notFound(call.element);
      case 'notAFunction':
        return this.#report({ code: 'config_invalid', message: `ServiceFrontEndSDK.${call.method}(callback) needs a function.` });
      case 'fault':
        return this.#report({
          code: 'internal_error',
          message: `ServiceFrontEndSDK.${call.method} failed unexpectedly (${call.detail}). Please report this to the payment service.`,
        });
    }
  }

  #emit(event: EngineEvent): void {
    this.options.emit(event);
  }

  #log(event: string, detail?: unknown): void {
    if (this.#config?.debug || this.#config?.visualizer) this.#emit(detail === undefined ? { type: 'log', event } : { type: 'log', event, detail });
  }

  #report(error: SdkError, debug = this.#config?.debug === true): void {
    this.#emit({ type: 'error', error, debug, logged: false });
  }

  #warn(code: Extract<EngineEvent, { type: 'warning' }>['code'], message: string): void {
    this.#emit({ type: 'warning', code, message });
  }

  /** `config(options)`; `replay`: the same options again for a new widget page, reported and logged once already. */
  #configure(options: unknown, replay: boolean): void {
    const checked = checkConfig(options);
    if (!checked.ok) {
      this.#config = null;
      this.#configFailed = true;
      this.#emit({ type: 'configured', config: null });
      if (!replay) this.#report({ code: 'config_invalid', message: checked.message }, asksForDebug(options));
      return;
    }
    const config = (this.#config = checked.value);
    const { mode, clientId, methodType, debug, visualizer, payButtonId, paymentMethods } = config;
    this.#configFailed = false;
    this.#emit({ type: 'configured', config: { clientId, debug, visualizer, payButtonId: payButtonId ?? null } });
    if (!replay) this.#log('config', { mode, clientId, methodType, debug, visualizer, payButtonId, paymentMethods });
    // On a replay too: the checker answers later (a lazy script), and the widget page that was given the options first
    // may be gone by then (init() makes a new one). The merchant page prints each warning code once.
    this.#checkLook(config.appearance);
    this.#widget?.configure(this.#widgetConfig(config));
  }

  /** `update({ appearance })`: a mounted widget changes its look at once, keeping its session and what was typed. */
  #update(options: unknown): void {
    const checked = checkUpdate(options);
    if (!checked.ok) return this.#report({ code: 'config_invalid', message: checked.message });
    if (!this.#config) return this.#report({ code: 'not_configured', message: 'Call ServiceFrontEndSDK.config({ mode, clientId }) before update().' });
    if (!('appearance' in checked.value)) return;
    const config = (this.#config = { ...this.#config, appearance: checked.value.appearance });
    this.#log('update', { appearance: config.appearance?.theme ?? 'default' });
    this.#checkLook(config.appearance);
    this.#widget?.configure(this.#widgetConfig(config));
  }

  /** What the widget will refuse of an appearance, said once in the console in debug mode (and in the log). */
  #checkLook(appearance: Appearance | undefined): void {
    const checker = this.options.checkLook;
    if (!appearance || !this.#config?.debug || !checker) return;
    checker(appearance).then(
      ({ refusals }) => {
        if (!refusals.length) return;
        this.#log('appearance refused', refusals);
        this.#warn('appearance-refused', refusalsWarning(refusals));
      },
      (error: unknown) => this.#log('appearance check not loaded', { reason: String(error) }),
    );
  }

  #widgetConfig({ clientId, mode, methodType, debug, locale, appearance, paymentMethods, maxInstallments }: EngineConfig): WidgetConfig {
    const { apiBase } = this.options;
    return {
      apiBase,
      clientId,
      mode,
      methodType,
      debug,
      locale,
      ...(appearance && { appearance }),
      ...(paymentMethods && { paymentMethods }),
      ...(maxInstallments && { maxInstallments }),
    };
  }

  /** The events of the widget mounted now; once it is removed, whatever it still reports is ignored. */
  #widgetEvents(): WidgetEvents {
    const generation = ++this.#mounts;
    const current =
      <T>(handler: (detail: T) => void) =>
      (detail: T): void => {
        if (generation === this.#mounts) handler(detail);
      };
    return {
      ready: current((detail) => this.#log('ready', detail)),
      paymentSelected: current(({ paymentMethod }) => this.#emit({ type: 'paymentSelected', paymentMethod })),
      paying: current(({ isPaying }) => {
        this.#paying = isPaying;
        this.#emit({ type: 'paying', isPaying });
      }),
      validationStatus: current(({ isValid, errors }) => this.#emit({ type: 'validation', isValid, errors: [...errors] })),
      dimensions: current(({ height, width }) => this.#emit({ type: 'dimensions', height, width })),
      // The widget already logged it in debug mode.
      error: current((error) => this.#emit({ type: 'error', error, debug: this.#config?.debug === true, logged: true })),
      paymentSuccess: current((detail) => this.#log('paymentSuccess', summary(detail.transaction))),
    };
  }

  /** `pay(callback, options)`, or a click on the pay button (`button`): the payment, then its `result` for the facade. */
  #pay({ requestId, options, button, callback }: PayCall): void {
    const end = (transaction: Transaction | null = null): void => this.#emit({ type: 'result', requestId, transaction });
    const config = this.#config;
    if (!button && !callback) {
      this.#report({
        code: 'config_invalid',
        message: 'ServiceFrontEndSDK.pay(callback, options) needs a function as its first argument; it receives the transaction.',
      });
      return end();
    }
    if (!config || !this.#widget) {
      this.#report({ code: 'not_configured', message: config ? PAY_BEFORE_INIT : PAY_BEFORE_CONFIG });
      return end();
    }
    let payment = options as SdkPayOptions | undefined;
    if (button) {
      if (this.#paying) {
        this.#log('pay button: payment already started by the page');
        return end();
      }
      payment = this.#buttonOptions(options as ButtonData);
      if (!callback && config.debug) {
        this.#warn(
          'pay-without-callback',
          'The pay button was clicked before any pay(callback) call; the transaction is only in the svc-payment-success event. Call ServiceFrontEndSDK.pay(callback, options) from your own handler instead, or listen for svc-payment-success.',
        );
      }
      this.#log('pay button clicked', payment ? { amount: payment.amount, currency: payment.currency } : undefined);
    } else {
      this.#lastOptions = payment;
    }
    const target = this.#widget;
    target.pay(payment).then(
      (transaction) => {
        if (target !== this.#widget) {
          this.#log('pay result of a removed widget ignored', summary(transaction));
          return end();
        }
        this.#log('pay callback', summary(transaction));
        end(transaction);
      },
      (error: unknown) => {
        // An SdkErrorException was already delivered through the widget's error event; a removed widget's outcome was
        // reported by the facade when it was removed.
        if (!(error instanceof SdkErrorException) && target === this.#widget) {
          this.#report({ code: 'internal_error', message: `The payment failed unexpectedly (${String(error)}). Please report this to the payment service.` });
        }
        end();
      },
    );
  }

  /** The pay button's data-amount / data-currency, else the last pay() options. */
  #buttonOptions(data: ButtonData): SdkPayOptions | undefined {
    const last = this.#lastOptions;
    if (data?.amount === undefined) return last;
    return {
      amount: Number(data.amount),
      currency: data.currency ?? last?.currency ?? '',
      ...(last?.billingAddress ? { billingAddress: last.billingAddress } : {}),
    } as SdkPayOptions;
  }

  #notFound(element: 'visualizer' | 'payButton'): void {
    if (element === 'visualizer') {
      return this.#warn(
        'visualizer-missing',
        `visualizer is on but the page has no element with id "${VISUALIZER_ID}"; add <div id="${VISUALIZER_ID}"></div>.`,
      );
    }
    const config = this.#config;
    if (config?.debug && config.payButtonId) {
      this.#warn(
        'pay-button-missing',
        `payButtonId is "${config.payButtonId}" but the page has no element with that id yet; clicks on it start the payment once it exists.`,
      );
    }
  }
}

/** Elements' link: the engine in the merchant page, called directly (without the appearance checker: see `checkLook`). */
export function localEngine(apiBase: string, adapter: WidgetAdapter): Connect {
  return (emit) => {
    const engine = new SdkEngine({ apiBase, adapter, emit });
    return {
      mount: (target, label, replace) => void engine.init(target, label, replace),
      unmount: () => engine.unmount(),
      call: (call) => engine.handle(call),
    };
  };
}
