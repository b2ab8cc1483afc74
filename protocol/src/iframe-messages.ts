/**
 * postMessage between the iframe SDK 1.0.9's loader (`{sdk_url}/iframe/1.0.9/sdk.js`, in the merchant page) and its
 * widget page (`{sdk_url}/iframe/1.0.9/widget.html?clientId=…&origin=<page origin>#instance=<id>`, on the service's
 * origin). The loader holds only what must live in the merchant page (the `ServiceFrontEndSDK` global, the merchant's
 * callbacks, the iframe and its size, the pay button, the visualizer's list); sdk-core's SDK core runs in the widget
 * page: the option checks, the messages, the payments, the debug log's lines. The loader relays the merchant's calls
 * to it (`config`, `init`, `pay`, a callback that is not a function, a fault) and the core's events back.
 *
 * Handshake: the widget posts `ready` to its parent (targetOrigin = the `origin` parameter the server checked against
 * the client ID); the loader answers with the last `config` (`replay: true` when a core already checked those options,
 * so that their errors are not reported twice) and `init`, then the calls it queued. Every message carries the widget's
 * instance id; `pay` and its `result` carry a request id. Both sides post to one exact origin, never '*', and take a
 * message only from the other side's window and origin, after parsing it here.
 */
import { z } from 'zod';
import { CARD_FIELDS, IFRAME_MESSAGE_SOURCES, SDK_CALLBACK_NAMES, SDK_PAGE_ELEMENTS, SDK_PAGE_WARNINGS } from './constants';
import { InstanceIdSchema, PaymentMethodNameSchema, SdkErrorSchema } from './sdk';
import type { Transaction } from './transaction';

const LOADER = z.literal(IFRAME_MESSAGE_SOURCES.loader);
const WIDGET = z.literal(IFRAME_MESSAGE_SOURCES.widget);
const instanceId = InstanceIdSchema;
/**
 * The transaction of a `result`: the widget parsed it (BrowserTransactionSchema: no commitLink, token or POS data) when the
 * service answered, so the loader, whose size budget has no room for that validator, checks that it is a plain object.
 */
const RelayedTransactionSchema = z.record(z.string(), z.unknown()).transform((value) => value as Transaction);

/** Loader → widget: the merchant's calls. Sent with targetOrigin = the service's origin. */
export const LoaderToWidgetMessageSchema = z.discriminatedUnion('type', [
  /** `config(options)`, as the merchant passed them (functions and other values a message cannot carry become null). */
  z.strictObject({ source: LOADER, instanceId, type: z.literal('config'), options: z.unknown().optional(), replay: z.boolean() }),
  /** `update(options)`, as the merchant passed them (the appearance of a mounted widget). */
  z.strictObject({ source: LOADER, instanceId, type: z.literal('update'), options: z.unknown().optional() }),
  /** `init(container)` mounted this widget; `container` names the container for the debug log. */
  z.strictObject({ source: LOADER, instanceId, type: z.literal('init'), container: z.string() }),
  /**
   * `pay(callback, options)`, or a click on the pay button (`button`, with the button's `data-amount` and
   * `data-currency` as `options`); `callback`: the merchant passed a function.
   */
  z.strictObject({
    source: LOADER,
    instanceId,
    type: z.literal('pay'),
    requestId: z.string().min(1).max(64),
    options: z.unknown().optional(),
    button: z.boolean(),
    callback: z.boolean(),
  }),
  /** A subscription (`paying(cb)`, …) was given something that is not a function. */
  z.strictObject({ source: LOADER, instanceId, type: z.literal('notAFunction'), method: z.enum(SDK_CALLBACK_NAMES) }),
  /** The page has no element for the visualizer, or for the pay button. */
  z.strictObject({ source: LOADER, instanceId, type: z.literal('notFound'), element: z.enum(SDK_PAGE_ELEMENTS) }),
  /** A public method failed unexpectedly in the merchant page. */
  z.strictObject({ source: LOADER, instanceId, type: z.literal('fault'), method: z.string(), detail: z.string() }),
]);
export type LoaderToWidgetMessage = z.infer<typeof LoaderToWidgetMessageSchema>;

const SdkFacadeConfigSchema = z.strictObject({ clientId: z.string(), debug: z.boolean(), visualizer: z.boolean(), payButtonId: z.string().nullable() });

/** Widget → loader: the core's events. Sent with targetOrigin = the merchant page's origin the widget page was served for. */
export const WidgetToLoaderMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('ready') }),
  /**
   * The widget page's title, in the widget's language (the catalogue's `widget.iframe`) once it speaks one: the loader
   * names the iframe with it, so a screen reader in the merchant page announces the form in the shopper's language.
   */
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('title'), title: z.string().min(1).max(200) }),
  /** The widget's content size, px: the loader sets the iframe's height to it. */
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('size'), height: z.number().nonnegative(), width: z.number().nonnegative() }),
  /** The checked config, what the merchant page needs of it; null when `config()` failed. */
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('configured'), config: SdkFacadeConfigSchema.nullable() }),
  /** A line of the debug log and visualizer (sent only in debug or visualizer mode; never card data or addresses). */
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('log'), event: z.string(), detail: z.unknown().optional() }),
  /** For the `error` callback; `debug`: warn in the console too; `logged`: the widget already wrote it to its debug log. */
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('error'), error: SdkErrorSchema, debug: z.boolean(), logged: z.boolean() }),
  /** A console warning for the merchant's developer, printed once per page. */
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('warning'), code: z.enum(SDK_PAGE_WARNINGS), message: z.string() }),
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('paymentSelected'), paymentMethod: PaymentMethodNameSchema }),
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('paying'), isPaying: z.boolean() }),
  /** Field names and generic messages only, never card data. */
  z.strictObject({
    source: WIDGET,
    instanceId,
    type: z.literal('validation'),
    isValid: z.boolean(),
    errors: z.array(z.object({ field: z.enum(CARD_FIELDS), message: z.string() })),
  }),
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('dimensions'), height: z.number().nonnegative(), width: z.number().nonnegative() }),
  /** The end of the payment `requestId`: its transaction, or null when it failed (the error came before). */
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('result'), requestId: z.string(), transaction: RelayedTransactionSchema.nullable() }),
  /** `init` was refused (the config failed): the loader removes the iframe (and so does the facade when it is lost). */
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('unmounted') }),
]);
export type WidgetToLoaderMessage = z.infer<typeof WidgetToLoaderMessageSchema>;
