/**
 * The iframe SDK's link from sdk-core's facade (in the merchant page) to sdk-core's engine (in the widget page), over
 * postMessage (protocol/src/iframe-messages.ts). Each `init` puts one `<iframe title="Payment form">` into the
 * container (titled in the widget's language once its page says it); the widget page runs the engine and the whole widget, and calls the service itself. This side sends the
 * merchant's calls (queued until the widget says `ready`, and the last config again to every new widget page), passes
 * the engine's events to the facade, sizes the iframe to the size the widget page reports (which is also what
 * frameDimensions says: the page measures itself), and reports what only the merchant page can see: a widget page
 * that does not start, and the iframe leaving the page (which the facade then handles as the widget's removal, so a
 * payment in progress ends there for the merchant).
 */
import { SDK_VERSIONS } from '@svc/protocol/light';
import type { EngineCall, EngineEvent, SdkLink } from '@svc/sdk-core/host';
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
 * becomes null, which the engine's checks refuse as they refuse the original.
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

type Call = Exclude<EngineCall, { type: 'init' }>;

const clientIdOf = (options: unknown): string => {
  const clientId = typeof options === 'object' && options !== null ? (options as { clientId?: unknown }).clientId : undefined;
  return typeof clientId === 'string' ? clientId : '';
};

/**
 * The link of one `ServiceFrontEndSDK`, at most one iframe at a time. A closure, not a class: it is in the loader, held
 * to 5 KB gzip, where a class costs about 110 bytes more (every `this.#field`; sdk-iframe/README.md#size).
 */
export function iframeLink(win: Window, apiBase: string, emit: (event: EngineEvent) => void, { readyMs }: IframeTimeouts = DEFAULT_TIMEOUTS): SdkLink {
  const serviceOrigin = new URL(apiBase).origin;
  /** The last config(): its options, and whether an engine has checked them (a later widget page gets them as a replay). */
  let config: { options: unknown; checked: boolean } | null = null;
  let iframe: HTMLIFrameElement | null = null;
  let label = '';
  let channel: LoaderChannel | null = null;
  /** Calls for the widget page until it says `ready`; null once it has (calls go at once). */
  let queue: Call[] | null = [];
  let readyTimer: ReturnType<typeof setTimeout> | undefined;
  /** The last frameDimensions, `<height>x<width>`. */
  let dimensions = '';
  let presence: MutationObserver | null = null;

  /** Loads the widget page for `clientId` (a new handshake). */
  function load(clientId: string): void {
    channel?.close();
    queue ??= [];
    const instanceId = randomInstanceId();
    const opened = (channel = loaderEnd(win, {
      peerOrigin: serviceOrigin,
      peerWindow: () => iframe?.contentWindow ?? null,
      instanceId,
      onMessage: (message) => {
        if (message.type === 'ready') return handshake(opened);
        if (message.type === 'size') return size(message.height, message.width);
        // The widget page's title, in the widget's language: the iframe's name (English until the page says it).
        if (message.type === 'title') return iframe && (iframe.title = message.title);
        // Another client ID: another widget page.
        if (message.type === 'configured' && message.config && message.config.clientId !== clientId) load(message.config.clientId);
        emit(message); // its source and instance id were checked; the facade reads the event's fields
      },
    }));
    opened.open();
    iframe!.src = widgetUrl(apiBase, clientId, win.location.origin, instanceId);
  }

  /** The widget page is ready: the last config (a replay once an engine has checked it), `init`, then the queued calls. */
  function handshake(opened: LoaderChannel): void {
    clearTimeout(readyTimer);
    if (config) {
      opened.send({ type: 'config', options: config.options, replay: config.checked });
      config.checked = true;
    }
    opened.send({ type: 'init', container: label });
    for (const call of queue ?? []) opened.send(call);
    queue = null;
  }

  /**
   * The widget page's size (its content box, rounded up): the iframe is made that tall, and frameDimensions is told
   * when it changed (the iframe has no border, so its box is the page's).
   */
  function size(height: number, width: number): void {
    if (!iframe) return;
    height = Math.ceil(height);
    width = Math.ceil(width);
    iframe.style.height = `${height}px`;
    const key = `${height}x${width}`;
    if (key === dimensions) return;
    dimensions = key;
    emit({ type: 'dimensions', height, width });
  }

  /** The iframe loaded: its page has `readyMs` to say `ready`, else it did not start (`frame_unavailable`). */
  const onLoad = (): void => {
    clearTimeout(readyTimer);
    if (!queue) return;
    readyTimer = setTimeout(() => {
      if (!queue || !iframe) return;
      const message = `The payment form did not start. Check that this page's origin (${win.location.origin}) is allowed for the client ID, that the page's Content-Security-Policy allows frames from ${serviceOrigin}, and that the payment service is reachable.`;
      emit({ type: 'error', error: { code: 'frame_unavailable', message }, debug: false, logged: false });
      queue = [];
    }, readyMs);
  };

  return {
    mount(target, name, replace) {
      replace();
      label = name;
      const doc = target.ownerDocument;
      const frame = doc.createElement('iframe');
      frame.title = 'Payment form';
      frame.setAttribute('allow', 'payment');
      frame.setAttribute('scrolling', 'no'); // the widget reports its height; the iframe is made that tall
      frame.style.cssText = 'display:block;width:100%;height:0;border:0;overflow:hidden';
      frame.addEventListener('load', onLoad);
      iframe = frame;
      load(clientIdOf(config?.options));
      target.append(frame);
      // Notices the iframe leaving the page with its container, which no event on the iframe tells.
      presence = new MutationObserver(() => {
        if (!frame.isConnected) emit({ type: 'unmounted' });
      });
      presence.observe(doc.documentElement, { childList: true, subtree: true });
    },

    unmount() {
      const frame = iframe;
      if (!frame) return;
      iframe = null;
      channel?.close();
      channel = null;
      presence?.disconnect();
      clearTimeout(readyTimer);
      frame.removeEventListener('load', onLoad);
      frame.remove();
      queue = [];
      dimensions = '';
    },

    call(call) {
      const message: Call = 'options' in call ? { ...call, options: cloneable(call.options) } : call;
      if (message.type === 'config') {
        // Not queued: the handshake sends the last one first.
        config = { options: message.options, checked: !queue };
        if (!queue) channel?.send(message);
        return;
      }
      // A later widget page (init again) gets the updated appearance with the config it is replayed.
      if (message.type === 'update' && config) config.options = { ...(config.options as object), ...(message.options as object) };
      if (queue) queue.push(message);
      else channel?.send(message);
    },
  };
}
