/**
 * The iframe SDK's link from sdk-core's facade (in the merchant page) to sdk-core's engine (in the widget page), over
 * postMessage (protocol/src/iframe-messages.ts). Each `init` puts one `<iframe title="Payment form">` into the
 * container; the widget page runs the engine and the whole widget, and calls the service itself. This side sends the
 * merchant's calls (queued until the widget says `ready`, and the last config again to every new widget page), passes
 * the engine's events to the facade, sizes the iframe to the height the widget reports, measures it for frameDimensions,
 * and reports what only the page can see: a widget page that does not start, and the iframe leaving the page (which
 * the facade then handles as the widget's removal, so a payment in progress ends there for the merchant).
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
 * The link for one `ServiceFrontEndSDK`. A closure, not a class: minified, a class still reaches its state through
 * `this.#e`, a closure's variables are one letter (sdk-iframe README, "Size": the loader is held to 5 KB).
 */
export function iframeLink(win: Window, apiBase: string, emit: (event: EngineEvent) => void, timeouts: IframeTimeouts = DEFAULT_TIMEOUTS): SdkLink {
  const serviceOrigin = new URL(apiBase).origin;
  let iframe: HTMLIFrameElement | null = null;
  let instanceId = '';
  let clientId = '';
  let label = '';
  let channel: LoaderChannel | null = null;
  let ready = false;
  /** The last config() options; `checked` once an engine has seen them (later widget pages get them as a replay). */
  let options: unknown;
  let configured = false;
  let checked = false;
  /** Calls for the widget page, until it says `ready`. */
  let queue: Call[] = [];
  let readyTimer: ReturnType<typeof setTimeout> | undefined;
  let dimensions = '';
  let observers: { disconnect(): void }[] = [];

  /** Loads the widget page for `id` (a new handshake). */
  function load(id: string): void {
    channel?.close();
    ready = false;
    clientId = id;
    instanceId = randomInstanceId();
    channel = loaderEnd(win, {
      peerOrigin: serviceOrigin,
      peerWindow: () => iframe?.contentWindow ?? null,
      instanceId,
      onMessage: (message) => {
        if (message.type === 'ready') handshake();
        else if (message.type === 'size') size(message.height);
        else relay(message); // its source and instance id were checked; the facade reads the event's fields
      },
    });
    channel.open();
    iframe!.src = widgetUrl(apiBase, id, win.location.origin, instanceId);
  }

  function handshake(): void {
    ready = true;
    clearTimeout(readyTimer);
    const open = channel!;
    if (configured) open.send({ type: 'config', options, replay: checked });
    checked = configured;
    open.send({ type: 'init', container: label });
    for (const call of queue.splice(0)) open.send(call);
  }

  function relay(event: EngineEvent): void {
    if (event.type === 'configured' && event.config && event.config.clientId !== clientId && iframe) {
      // Another client ID: another widget page.
      load(event.config.clientId);
    }
    emit(event);
  }

  function size(height: number): void {
    const px = `${Math.ceil(height)}px`;
    if (iframe && iframe.style.height !== px) iframe.style.height = px;
  }

  function onLoad(): void {
    clearTimeout(readyTimer);
    if (ready) return;
    readyTimer = setTimeout(() => {
      if (ready || !iframe) return;
      const message = `The payment form did not start. Check that this page's origin (${win.location.origin}) is allowed for the client ID, that the page's Content-Security-Policy allows frames from ${serviceOrigin}, and that the payment service is reachable.`;
      emit({ type: 'error', error: { code: 'frame_unavailable', message }, debug: false, logged: false });
      queue = [];
    }, timeouts.readyMs);
  }

  function measure(): void {
    if (!iframe?.isConnected) return;
    const rect = iframe.getBoundingClientRect();
    const height = Math.ceil(rect.height);
    const width = Math.ceil(rect.width);
    const key = `${height}x${width}`;
    if (key === dimensions) return;
    dimensions = key;
    emit({ type: 'dimensions', height, width });
  }

  return {
    mount(target, name, replace) {
      replace();
      label = name;
      const doc = target.ownerDocument;
      const frame = doc.createElement('iframe');
      frame.title = 'Payment form';
      frame.setAttribute('allow', 'payment');
      frame.setAttribute('scrolling', 'no'); // the widget reports its height; the iframe is made that tall
      Object.assign(frame.style, { display: 'block', width: '100%', height: '0px', border: '0', overflow: 'hidden' });
      frame.addEventListener('load', onLoad);
      iframe = frame;
      load(clientIdOf(options));
      target.append(frame);
      const resize = new ResizeObserver(measure);
      resize.observe(frame);
      // Notices the iframe leaving the page with its container, which no event on the iframe tells.
      const presence = new MutationObserver(() => {
        if (!frame.isConnected) emit({ type: 'unmounted' });
      });
      presence.observe(doc.documentElement, { childList: true, subtree: true });
      observers = [resize, presence];
    },

    unmount() {
      const frame = iframe;
      if (!frame) return;
      iframe = null;
      channel?.close();
      channel = null;
      for (const observer of observers) observer.disconnect();
      clearTimeout(readyTimer);
      frame.removeEventListener('load', onLoad);
      frame.remove();
      queue = [];
      ready = false;
      dimensions = '';
    },

    call(call) {
      if (call.type === 'config') {
        options = cloneable(call.options);
        configured = true;
        checked = false;
        if (!ready) return;
        checked = true;
        return void channel?.send({ type: 'config', options, replay: false });
      }
      const message: Call = 'options' in call ? { ...call, options: cloneable(call.options) } : call;
      // A later widget page (init again) gets the updated appearance with the config it is replayed.
      if (message.type === 'update' && configured) options = { ...(options as object), ...(message.options as object) };
      if (ready) channel?.send(message);
      else queue.push(message);
    },
  };
}
