/**
 * The line between the two halves of `ServiceFrontEndSDK` (docs/integrating.md#browser-sdks). The facade
 * (service-front-end-sdk.ts) is what must live in the merchant page: the global's methods, the merchant's callbacks,
 * the container, the pay button, the visualizer's list. The engine (sdk-engine.ts) is the rest: the option checks, the
 * messages, the payments over the widget, the debug log's lines. They talk in the iframe SDK's postMessage messages
 * (protocol/src/iframe-messages.ts) without their `source` and `instanceId`: Elements runs the engine in the merchant
 * page and passes them as calls; the iframe SDK runs it in its widget page and posts them.
 */
import type { LoaderToWidgetMessage, Transaction, WidgetToLoaderMessage } from '@svc/protocol';
import type { MessageBody } from '../shared/channel';

/** A merchant call the facade hands to the engine. */
export type EngineCall = MessageBody<LoaderToWidgetMessage>;
/** What the engine tells the facade. */
export type EngineEvent = Exclude<MessageBody<WidgetToLoaderMessage>, { type: 'ready' | 'size' }>;

/** How the facade reaches an engine: Elements' is in the page (sdk-engine.ts, `localEngine`), the iframe SDK's in its iframe. */
export interface SdkLink {
  /**
   * `init`: puts the widget into `target` and starts it. The link calls `replace()` (which removes the current widget)
   * just before, unless the engine refuses the init (config failed), which it reports itself.
   */
  mount(target: HTMLElement, label: string, replace: () => void): void;
  /** Removes the widget (its late events are ignored). */
  unmount(): void;
  /** Every other call: config, pay, a callback that is not a function, a fault. */
  call(call: Exclude<EngineCall, { type: 'init' }>): void;
}

/** The facade gives a link the function that takes the engine's events. */
export type Connect = (emit: (event: EngineEvent) => void) => SdkLink;

/** Where `visualizer: true` draws its list: the facade finds it, the engine names it when it is missing. */
export const VISUALIZER_ID = 'service-front-end-visualizer';

/** `init()` before `config()`, and `pay()` before a widget is mounted: the facade's messages, and the engine's. */
export const INIT_BEFORE_CONFIG = 'Call ServiceFrontEndSDK.config({ mode, clientId }) before init().';
export const PAY_BEFORE_INIT = 'Call ServiceFrontEndSDK.init() before pay().';
export const PAY_BEFORE_CONFIG = 'Call ServiceFrontEndSDK.config({ mode, clientId }) and init() before pay().';

/** A transaction in the debug log: its number and status, nothing else. */
export const summary = (transaction: Transaction) => ({
  transactionNumber: transaction.TransactionNumber,
  status: transaction.status,
  statusName: transaction.statusName,
});
