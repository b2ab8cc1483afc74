/**
 * postMessage between the iframe SDK 1.0.9's loader (`{sdk_url}/iframe/1.0.9/sdk.js`, in the merchant page) and its
 * widget page (`{sdk_url}/iframe/1.0.9/widget.html?clientId=…&origin=<page origin>#instance=<id>`, on the service's
 * origin). The widget holds the whole payment form and calls the service itself; the loader only relays the
 * `ServiceFrontEndSDK` calls and events and sizes the iframe.
 *
 * Handshake: the widget posts `ready` to its parent (targetOrigin = the `origin` parameter the server checked against
 * the client ID); the loader answers `configure`, and again whenever `config()` changes mode, methodType or debug.
 * Every message carries the widget's instance id; `pay` and its `result` carry a request id. Both sides post to one
 * exact origin, never '*', and take a message only from the other side's window and origin, after parsing it here.
 */
import { z } from 'zod';
import { CARD_FIELDS, IFRAME_MESSAGE_SOURCES } from './constants';
import { CurrencySchema } from './currency';
import { BillingAddressSchema, CentsSchema } from './lifecycle-requests';
import { InstanceIdSchema, PaymentMethodNameSchema, SdkErrorSchema, SdkMethodTypeSchema, SdkModeSchema } from './sdk';
import type { Transaction } from './transaction';

const LOADER = z.literal(IFRAME_MESSAGE_SOURCES.loader);
const WIDGET = z.literal(IFRAME_MESSAGE_SOURCES.widget);
const instanceId = InstanceIdSchema;
/**
 * The transaction of a `result`: the widget parsed it (TransactionSchema) when the service answered, so the loader, whose
 * size budget has no room for that validator, checks that it is a plain object.
 */
const RelayedTransactionSchema = z.record(z.string(), z.unknown()).transform((value) => value as Transaction);

/** Loader → widget. Sent with targetOrigin = the service's origin. */
export const LoaderToWidgetMessageSchema = z.discriminatedUnion('type', [
  /** The merchant's config (the client ID is in the widget's URL); a change of mode or methodType starts a new session. */
  z.strictObject({ source: LOADER, instanceId, type: z.literal('configure'), mode: SdkModeSchema, methodType: SdkMethodTypeSchema, debug: z.boolean() }),
  /** `pay(callback, options)`: the options, already checked by the loader; the billing address goes into the payment only. */
  z.strictObject({
    source: LOADER,
    instanceId,
    type: z.literal('pay'),
    requestId: z.string().min(1).max(64),
    amount: CentsSchema.optional(),
    currency: CurrencySchema.optional(),
    billingAddress: BillingAddressSchema.optional(),
  }),
]);
export type LoaderToWidgetMessage = z.infer<typeof LoaderToWidgetMessageSchema>;

/** Widget → loader. Sent with targetOrigin = the merchant page's origin the widget page was served for. */
export const WidgetToLoaderMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('ready') }),
  /** The widget's content size, px: the loader sets the iframe's height to it. */
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('size'), height: z.number().nonnegative(), width: z.number().nonnegative() }),
  /** The session is loaded and these methods are offered. */
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('loaded'), paymentMethods: z.array(PaymentMethodNameSchema) }),
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
  /** An error outside a payment (the session could not start, the widget was refused). */
  z.strictObject({ source: WIDGET, instanceId, type: z.literal('error'), error: SdkErrorSchema }),
  // One `result` type, told apart by `ok` (as the card frame's result).
  z.discriminatedUnion('ok', [
    z.strictObject({
      source: WIDGET,
      instanceId,
      type: z.literal('result'),
      requestId: z.string(),
      ok: z.literal(true),
      transaction: RelayedTransactionSchema,
    }),
    z.strictObject({ source: WIDGET, instanceId, type: z.literal('result'), requestId: z.string(), ok: z.literal(false), error: SdkErrorSchema }),
  ]),
]);
export type WidgetToLoaderMessage = z.infer<typeof WidgetToLoaderMessageSchema>;
