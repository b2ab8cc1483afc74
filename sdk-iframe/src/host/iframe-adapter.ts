/**
 * The iframe SDK's adapter of sdk-core's ServiceFrontEndSDK: it puts one `<iframe title="Payment form">` on the page,
 * showing the widget page of the service, and relays over postMessage (protocol/src/iframe-messages.ts). The widget
 * draws everything, calls the service itself and holds the card; this side only sends `configure` and `pay`, turns the
 * widget's messages into the SDK's events, and sizes the iframe to the height the widget reports.
 */
import type { LoaderToWidgetMessage, SdkError, SdkPayOptions, Transaction, WidgetToLoaderMessage } from '@svc/protocol';
import { SDK_VERSIONS } from '@svc/protocol/light';
import { payOptionsFrom, type WidgetAdapter, type WidgetConfig, type WidgetEvents, type WidgetHandle } from '@svc/sdk-core/host';
import { randomInstanceId, SdkErrorException, type MessageBody } from '@svc/sdk-core/shared';
import { loaderEnd, type LoaderChannel } from './loader-channel';

export interface IframeTimeouts {
  /** Time the widget page gets to say `ready` once loaded, before `frame_unavailable`. */
  readyMs: number;
  /** Time a payment gets to answer; longer than the widget's own request limits, so the widget normally answers first. */
  resultMs: number;
}

export const DEFAULT_TIMEOUTS: IframeTimeouts = { readyMs: 8_000, resultMs: 75_000 };

/** The widget page for one widget: the server checks `origin` against the client ID and sets frame-ancestors to it. */
export function widgetUrl(apiBase: string, clientId: string, pageOrigin: string, instanceId: string): string {
  const query = new URLSearchParams({ clientId, origin: pageOrigin });
  return `${apiBase}/sdk/iframe/${SDK_VERSIONS.iframe}/widget.html?${query}#instance=${instanceId}`;
}

export function createIframeAdapter(win: Window, timeouts: IframeTimeouts = DEFAULT_TIMEOUTS): WidgetAdapter {
  return { mount: (container, config, events) => new IframeWidget(win, container, config, events, timeouts) };
}

type PayMessage = MessageBody<Extract<LoaderToWidgetMessage, { type: 'pay' }>>;
interface PendingPay {
  requestId: string;
  resolve: (transaction: Transaction) => void;
  reject: (error: SdkErrorException) => void;
  timer: ReturnType<typeof setTimeout>;
}

const unavailable = (message: string): SdkError => ({ code: 'frame_unavailable', message });

export class IframeWidget implements WidgetHandle {
  readonly instanceId = randomInstanceId();
  readonly iframe: HTMLIFrameElement;
  #config: WidgetConfig;
  #channel: LoaderChannel;
  #ready = false;
  /** The widget page was refused (unknown client ID, origin not allowed): every pay gets this error. */
  #refusal: SdkError | null = null;
  #paying = false;
  #pending: PendingPay | null = null;
  /** A pay sent before the handshake: posted on `ready`. */
  #queued: PayMessage | null = null;
  #requests = 0;
  #readyTimer: ReturnType<typeof setTimeout> | undefined;
  #dimensions = '';
  #connected = true;
  #destroyed = false;
  readonly #resize: ResizeObserver;
  readonly #presence: MutationObserver;
  readonly #onLoad = (): void => this.#startReadyTimer();

  constructor(
    private readonly win: Window,
    container: HTMLElement,
    config: WidgetConfig,
    private readonly events: WidgetEvents,
    private readonly timeouts: IframeTimeouts,
  ) {
    this.#config = config;
    const doc = container.ownerDocument;
    const iframe = doc.createElement('iframe');
    iframe.title = 'Payment form';
    iframe.setAttribute('allow', 'payment');
    iframe.setAttribute('scrolling', 'no'); // the widget reports its height; the iframe is made that tall
    Object.assign(iframe.style, { display: 'block', width: '100%', height: '0px', border: '0', overflow: 'hidden' });
    iframe.addEventListener('load', this.#onLoad);
    this.iframe = iframe;
    this.#channel = this.#openChannel();
    iframe.src = widgetUrl(config.apiBase, config.clientId, win.location.origin, this.instanceId);
    container.append(iframe);
    this.#resize = new ResizeObserver(() => this.#measure());
    this.#resize.observe(iframe);
    // Notices the iframe leaving the page with its container (and coming back), which no event on the iframe tells.
    this.#presence = new MutationObserver(() => this.#checkPresence());
    this.#presence.observe(doc.documentElement, { childList: true, subtree: true });
  }

  configure(config: WidgetConfig): void {
    const previous = this.#config;
    this.#config = config;
    if (config.apiBase !== previous.apiBase || config.clientId !== previous.clientId) {
      // Another client ID or service: another widget page, so a new handshake.
      this.#channel.close();
      this.#ready = false;
      this.#refusal = null;
      this.#channel = this.#openChannel();
      this.iframe.src = widgetUrl(config.apiBase, config.clientId, this.win.location.origin, this.instanceId);
      return;
    }
    if (this.#ready) this.#sendConfigure();
  }

  pay(options?: SdkPayOptions): Promise<Transaction> {
    if (this.#destroyed || !this.iframe.isConnected) {
      return this.#refuse({ code: 'not_configured', message: 'The payment form is not on the page (its container was removed). Call ServiceFrontEndSDK.init() again before pay().' });
    }
    if (this.#pending) {
      return this.#refuse({ code: 'payment_in_progress', message: 'A payment is already in progress. Wait for its result (the pay callback or an error) before paying again.' });
    }
    const payment = payOptionsFrom(options, this.#config.methodType);
    if (!payment.ok) return this.#refuse(payment.error);
    if (this.#refusal) return this.#refuse(this.#refusal);
    this.#requests += 1;
    const requestId = `${this.instanceId.slice(0, 8)}-${this.#requests}`;
    // payOptionsFrom checked the options with the protocol's validator (the currency is one of CURRENCIES, upper-cased).
    const message = { type: 'pay', requestId, ...payment.value } as PayMessage;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.#settle(requestId, { ok: false, error: unavailable('The payment form did not answer. Check the connection and pay again.') }), this.timeouts.resultMs);
      this.#pending = { requestId, resolve, reject, timer };
      if (this.#ready) this.#channel.send(message);
      else this.#queued = message;
    });
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#channel.close();
    this.#resize.disconnect();
    this.#presence.disconnect();
    clearTimeout(this.#readyTimer);
    this.iframe.removeEventListener('load', this.#onLoad);
    this.iframe.remove();
    const pending = this.#pending;
    this.#pending = null;
    this.#queued = null;
    if (pending) {
      // The SDK already told the merchant (destroy during a payment) and ignores this widget's outcome.
      clearTimeout(pending.timer);
      pending.reject(new SdkErrorException(unavailable('The payment form was removed during the payment.')));
    }
  }

  #openChannel(): LoaderChannel {
    const channel = loaderEnd(this.win, {
      peerOrigin: new URL(this.#config.apiBase).origin,
      peerWindow: () => this.iframe.contentWindow,
      instanceId: this.instanceId,
      onMessage: (message) => this.#onMessage(message),
    });
    channel.open();
    return channel;
  }

  #onMessage(message: WidgetToLoaderMessage): void {
    switch (message.type) {
      case 'ready':
        this.#ready = true;
        clearTimeout(this.#readyTimer);
        this.#sendConfigure();
        if (this.#queued) this.#channel.send(this.#queued);
        this.#queued = null;
        return;
      case 'size': {
        const height = `${Math.ceil(message.height)}px`;
        if (this.iframe.style.height !== height) this.iframe.style.height = height;
        return;
      }
      case 'loaded':
        this.events.ready({ paymentMethods: message.paymentMethods });
        return;
      case 'paymentSelected':
        this.events.paymentSelected({ paymentMethod: message.paymentMethod });
        return;
      case 'paying':
        this.#setPaying(message.isPaying);
        return;
      case 'validation':
        this.events.validationStatus({ isValid: message.isValid, errors: message.errors });
        return;
      case 'error':
        if (!this.#ready) this.#refused(message.error);
        else this.events.error(message.error);
        return;
      case 'result':
        this.#settle(message.requestId, message.ok ? { ok: true, transaction: message.transaction } : { ok: false, error: message.error });
    }
  }

  #sendConfigure(): void {
    const { mode, methodType, debug } = this.#config;
    this.#channel.send({ type: 'configure', mode, methodType, debug });
  }

  /** Ends the payment `requestId`: its outcome event, then paying(false), then the promise (Elements' order). */
  #settle(requestId: string, outcome: { ok: true; transaction: Transaction } | { ok: false; error: SdkError }): void {
    const pending = this.#pending;
    if (!pending || pending.requestId !== requestId) return;
    this.#pending = null;
    this.#queued = null;
    clearTimeout(pending.timer);
    if (outcome.ok) {
      this.events.paymentSuccess({ transaction: outcome.transaction });
      this.#setPaying(false);
      pending.resolve(outcome.transaction);
      return;
    }
    this.events.error(outcome.error);
    this.#setPaying(false);
    pending.reject(new SdkErrorException(outcome.error));
  }

  #refuse(error: SdkError): Promise<never> {
    this.events.error(error);
    return Promise.reject(new SdkErrorException(error));
  }

  /** The widget page was refused before any handshake: its reason is the error, and a waiting pay ends with it. */
  #refused(error: SdkError): void {
    this.#refusal = error;
    clearTimeout(this.#readyTimer);
    if (this.#pending) this.#settle(this.#pending.requestId, { ok: false, error });
    else this.events.error(error);
  }

  #setPaying(paying: boolean): void {
    if (paying === this.#paying) return;
    this.#paying = paying;
    this.events.paying({ isPaying: paying });
  }

  #startReadyTimer(): void {
    clearTimeout(this.#readyTimer);
    if (this.#ready || this.#refusal) return;
    this.#readyTimer = setTimeout(() => {
      if (this.#ready || this.#refusal || this.#destroyed) return;
      const error = unavailable(
        `The payment form did not start. Check that this page's origin (${this.win.location.origin}) is allowed for the client ID, that the page's Content-Security-Policy allows frames from ${new URL(this.#config.apiBase).origin}, and that the payment service is reachable.`,
      );
      if (this.#pending) this.#settle(this.#pending.requestId, { ok: false, error });
      else this.events.error(error);
    }, this.timeouts.readyMs);
  }

  #measure(): void {
    if (!this.iframe.isConnected) return;
    const rect = this.iframe.getBoundingClientRect();
    const dimensions = { height: Math.ceil(rect.height), width: Math.ceil(rect.width) };
    const key = `${dimensions.height}x${dimensions.width}`;
    if (key === this.#dimensions) return;
    this.#dimensions = key;
    this.events.dimensions(dimensions);
  }

  #checkPresence(): void {
    const connected = this.iframe.isConnected;
    if (connected === this.#connected || this.#destroyed) return;
    this.#connected = connected;
    if (connected) {
      // Back on the page: the iframe loads its page again, whose `ready` starts a new handshake.
      this.#channel.open();
      return;
    }
    this.#channel.close();
    this.#ready = false;
    clearTimeout(this.#readyTimer);
    if (this.#pending) this.#settle(this.#pending.requestId, { ok: false, error: unavailable('The payment form was removed from the page during the payment, so the payment did not complete. Put it back with ServiceFrontEndSDK.init(), then pay again.') });
  }
}
