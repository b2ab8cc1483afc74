/**
 * The iframe SDK's link from sdk-core's facade (in the merchant page) to sdk-core's core (in the widget page), over
 * postMessage (protocol/src/iframe-messages.ts). Each `init` puts one `<iframe title="Payment form">` into the
 * container; the widget page runs the core and the whole widget, and calls the service itself. This side sends the
 * merchant's calls (queued until the widget says `ready`, and the last config again to every new widget page), passes
 * the core's events to the facade, sizes the iframe to the height the widget reports, measures it for frameDimensions,
 * and reports what only the page can see: a widget page that does not start, and the iframe leaving the page (which
 * the facade then handles as the widget's removal, so a payment in progress ends there for the merchant).
 */
import { SDK_VERSIONS } from '@svc/protocol/light';
import type { CoreCall, CoreEvent, SdkLink } from '@svc/sdk-core/host';
import { randomInstanceId } from '@svc/sdk-core/shared';
import { loaderEnd, type LoaderChannel } from './loader-channel';

export interface IframeTimeouts {
  /** Time the widget page gets to say `ready` once loaded, before `frame_unavailable`. */
  readyMs: number;
}

export const DEFAULT_TIMEOUTS: IframeTimeouts = { readyMs: 8_000 };

/** The widget page for one widget: the server checks `origin` against the client ID and sets frame-ancestors to it. */
export function widgetUrl(apiBase: string, clientId: string, pageOrigin: string, instanceId: string): string {
  const query = new URLSearchParams({ clientId, origin: pageOrigin });
  return `${apiBase}/sdk/iframe/${SDK_VERSIONS.iframe}/widget.html?${query}#instance=${instanceId}`;
}

/**
 * What postMessage can carry of the merchant's options: a function, a symbol, an element or another class instance
 * becomes null, which the core's checks refuse as they refuse the original.
 */
export function cloneable(value: unknown, depth = 0): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') return null;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 4) return null;
  if (Array.isArray(value)) return value.map((item) => cloneable(item, depth + 1));
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return null;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cloneable(item, depth + 1)]));
}

type Call = Exclude<CoreCall, { type: 'init' }>;

export class IframeLink implements SdkLink {
  iframe: HTMLIFrameElement | null = null;
  #instanceId = '';
  #clientId = '';
  #label = '';
  #channel: LoaderChannel | null = null;
  #ready = false;
  /** The last config() options; `#checked` once a core has seen them (later widget pages get them as a replay). */
  #options: unknown;
  #configured = false;
  #checked = false;
  /** Calls for the widget page, until it says `ready`. */
  #queue: Call[] = [];
  #readyTimer: ReturnType<typeof setTimeout> | undefined;
  #dimensions = '';
  #observers: { disconnect(): void }[] = [];
  readonly #onLoad = (): void => this.#startReadyTimer();

  constructor(
    private readonly win: Window,
    private readonly apiBase: string,
    private readonly emit: (event: CoreEvent) => void,
    private readonly timeouts: IframeTimeouts = DEFAULT_TIMEOUTS,
  ) {}

  mount(target: HTMLElement, label: string, replace: () => void): void {
    replace();
    this.#label = label;
    const doc = target.ownerDocument;
    const iframe = doc.createElement('iframe');
    iframe.title = 'Payment form';
    iframe.setAttribute('allow', 'payment');
    iframe.setAttribute('scrolling', 'no'); // the widget reports its height; the iframe is made that tall
    Object.assign(iframe.style, { display: 'block', width: '100%', height: '0px', border: '0', overflow: 'hidden' });
    iframe.addEventListener('load', this.#onLoad);
    this.iframe = iframe;
    this.#load(this.#clientIdOf(this.#options));
    target.append(iframe);
    const resize = new ResizeObserver(() => this.#measure());
    resize.observe(iframe);
    // Notices the iframe leaving the page with its container, which no event on the iframe tells.
    const presence = new MutationObserver(() => {
      if (!iframe.isConnected) this.emit({ type: 'unmounted' });
    });
    presence.observe(doc.documentElement, { childList: true, subtree: true });
    this.#observers = [resize, presence];
  }

  unmount(): void {
    const { iframe } = this;
    if (!iframe) return;
    this.iframe = null;
    this.#channel?.close();
    this.#channel = null;
    for (const observer of this.#observers) observer.disconnect();
    clearTimeout(this.#readyTimer);
    iframe.removeEventListener('load', this.#onLoad);
    iframe.remove();
    this.#queue = [];
    this.#ready = false;
    this.#dimensions = '';
  }

  call(call: Call): void {
    if (call.type === 'config') {
      this.#options = cloneable(call.options);
      this.#configured = true;
      this.#checked = false;
      if (!this.#ready) return;
      this.#checked = true;
      return void this.#channel?.send({ type: 'config', options: this.#options, replay: false });
    }
    const message: Call = call.type === 'pay' ? { ...call, options: cloneable(call.options) } : call;
    if (this.#ready) this.#channel?.send(message);
    else this.#queue.push(message);
  }

  #clientIdOf(options: unknown): string {
    const clientId = typeof options === 'object' && options !== null ? (options as { clientId?: unknown }).clientId : undefined;
    return typeof clientId === 'string' ? clientId : '';
  }

  /** Loads the widget page for `clientId` (a new handshake). */
  #load(clientId: string): void {
    this.#channel?.close();
    this.#ready = false;
    this.#clientId = clientId;
    this.#instanceId = randomInstanceId();
    const channel = loaderEnd(this.win, {
      peerOrigin: new URL(this.apiBase).origin,
      peerWindow: () => this.iframe?.contentWindow ?? null,
      instanceId: this.#instanceId,
      onMessage: (message) => {
        if (message.type === 'ready') this.#handshake();
        else if (message.type === 'size') this.#size(message.height);
        else this.#relay(message); // its source and instance id were checked; the facade reads the event's fields
      },
    });
    channel.open();
    this.#channel = channel;
    this.iframe!.src = widgetUrl(this.apiBase, clientId, this.win.location.origin, this.#instanceId);
  }

  #handshake(): void {
    this.#ready = true;
    clearTimeout(this.#readyTimer);
    const channel = this.#channel!;
    if (this.#configured) channel.send({ type: 'config', options: this.#options, replay: this.#checked });
    this.#checked = this.#configured;
    channel.send({ type: 'init', container: this.#label });
    for (const call of this.#queue.splice(0)) channel.send(call);
  }

  #relay(event: CoreEvent): void {
    if (event.type === 'configured' && event.config && event.config.clientId !== this.#clientId && this.iframe) {
      // Another client ID: another widget page.
      this.#load(event.config.clientId);
    }
    this.emit(event);
  }

  #size(height: number): void {
    const px = `${Math.ceil(height)}px`;
    if (this.iframe && this.iframe.style.height !== px) this.iframe.style.height = px;
  }

  #startReadyTimer(): void {
    clearTimeout(this.#readyTimer);
    if (this.#ready) return;
    this.#readyTimer = setTimeout(() => {
      if (this.#ready || !this.iframe) return;
      const message = `The payment form did not start. Check that this page's origin (${this.win.location.origin}) is allowed for the client ID, that the page's Content-Security-Policy allows frames from ${new URL(this.apiBase).origin}, and that the payment service is reachable.`;
      this.emit({ type: 'error', error: { code: 'frame_unavailable', message }, debug: false, logged: false });
      this.#queue = [];
    }, this.timeouts.readyMs);
  }

  #measure(): void {
    if (!this.iframe?.isConnected) return;
    const rect = this.iframe.getBoundingClientRect();
    const height = Math.ceil(rect.height);
    const width = Math.ceil(rect.width);
    const key = `${height}x${width}`;
    if (key === this.#dimensions) return;
    this.#dimensions = key;
    this.emit({ type: 'dimensions', height, width });
  }
}
