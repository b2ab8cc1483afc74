/**
 * What an SDK gives `createServiceFrontEndSDK`: how to put one payment widget on the page. Elements mounts its custom
 * element (sdk-elements/src/adapter.ts); the iframe SDK mounts `<iframe title="Payment form">` and relays over
 * postMessage. The SDK (service-front-end-sdk.ts) owns everything else: config checks, the merchant's callbacks,
 * the pay button, debug log and visualizer, and turning every mistake into an `error` callback.
 */
import type { Appearance, FrameToHostMessage, PaymentMethodName, SdkError, SdkMethodType, SdkPayOptions, Transaction } from '@svc/protocol';

/** What the widget needs to start (a new `config()` after `init()` is applied with `WidgetHandle.configure`). */
export interface WidgetConfig {
  /** The payment service's base URL (no trailing slash). */
  apiBase: string;
  clientId: string;
  mode: 'sandbox' | 'production';
  methodType: SdkMethodType;
  debug: boolean;
  /** The look (its shape checked; each value is checked where it is applied). Applied without losing what was typed. */
  appearance?: Appearance | undefined;
  /** The methods to offer, of the session's; undefined: all of them. */
  paymentMethods?: PaymentMethodName[] | undefined;
  /** `auto` or a language, as the page passed it (the widget resolves it: an unsupported one is `en`, with a warning). */
  locale: string;
  /** The most payments the session is asked for (`config({ maxInstallments })`); undefined: none. */
  maxInstallments?: number | undefined;
}

/** A card field's validation error: the field and a generic message, never card data. */
export type CardFieldError = Extract<FrameToHostMessage, { type: 'validation' }>['errors'][number];

/**
 * What the widget tells the SDK, in the widget's order. The SDK calls the merchant's callbacks from these; the adapter
 * calls them synchronously when the widget's state changes (`paying` true when a payment starts, false when it ends).
 */
export interface WidgetEvents {
  ready(detail: { paymentMethods: PaymentMethodName[] }): void;
  paymentSelected(detail: { paymentMethod: PaymentMethodName }): void;
  paying(detail: { isPaying: boolean }): void;
  validationStatus(detail: { isValid: boolean; errors: CardFieldError[] }): void;
  /** The widget's rendered size in px (the iframe SDK sizes its iframe to it). */
  dimensions(detail: { height: number; width: number }): void;
  /** An error the widget found (session refused, card declined, frame unavailable…), already logged if `debug`. */
  error(error: SdkError): void;
  paymentSuccess(detail: { transaction: Transaction }): void;
}

export interface WidgetHandle {
  /** Applies a new configuration to the mounted widget. */
  configure(config: WidgetConfig): void;
  /**
   * Pays with the method the customer chose. Resolves with the transaction (status 10, `paymentCommit`). Rejects with
   * an `SdkErrorException` (shared/sdk-errors.ts) after reporting that error through `events.error`; any other
   * rejection is reported by the SDK as `internal_error`.
   */
  pay(options?: SdkPayOptions): Promise<Transaction>;
  /** Removes the widget from the page with every listener it added. Its pending `pay()` may still settle; the SDK ignores it. */
  destroy(): void;
}

export interface WidgetAdapter {
  /** Puts a widget into `container` (an element of the page) and starts it with `config`. */
  mount(container: HTMLElement, config: WidgetConfig, events: WidgetEvents): WidgetHandle;
}
