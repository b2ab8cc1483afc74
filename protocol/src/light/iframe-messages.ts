/**
 * Mirrors of the iframe SDK's postMessage schemas (`../iframe-messages.ts`) for the loader and the widget page;
 * light.test.ts checks each against its zod original. The loader (≤ 5 KB gzip) cannot carry zod or zod/mini, nor the
 * transaction's validator: it imports neither ./transaction nor ./frame-messages.
 */
import { CARD_FIELDS, IFRAME_MESSAGE_SOURCES, PAYMENT_METHODS, SDK_METHOD_TYPES, SDK_MODES } from '../constants';
import { array, boolean, literal, number, object, oneOf, optional, record, string, union, type Infer, type Validator } from './schema';
import { BillingAddressWire, Cents, Currency, InstanceId } from './sdk';
import { SdkErrorWire } from './session';
import type { TransactionWire } from './transaction';

const loader = literal(IFRAME_MESSAGE_SOURCES.loader);
const widget = literal(IFRAME_MESSAGE_SOURCES.widget);
const instanceId = InstanceId;
const strict = { strict: true };
const method = oneOf(PAYMENT_METHODS);
const nonNegative = number({ min: 0 });
/** The widget checked the transaction with TransactionWire when the service answered; the loader takes it as an object. */
const relayedTransaction = record as Validator<Infer<typeof TransactionWire>>;

export const LoaderToWidgetMessageWire = union('type', [
  object({ source: loader, instanceId, type: literal('configure'), mode: oneOf(SDK_MODES), methodType: oneOf(SDK_METHOD_TYPES), debug: boolean }, strict),
  object(
    {
      source: loader,
      instanceId,
      type: literal('pay'),
      requestId: string({ min: 1, max: 64 }),
      amount: optional(Cents),
      currency: optional(Currency),
      billingAddress: optional(BillingAddressWire),
    },
    strict,
  ),
]);

export const WidgetToLoaderMessageWire = union('type', [
  object({ source: widget, instanceId, type: literal('ready') }, strict),
  object({ source: widget, instanceId, type: literal('size'), height: nonNegative, width: nonNegative }, strict),
  object({ source: widget, instanceId, type: literal('loaded'), paymentMethods: array(method) }, strict),
  object({ source: widget, instanceId, type: literal('paymentSelected'), paymentMethod: method }, strict),
  object({ source: widget, instanceId, type: literal('paying'), isPaying: boolean }, strict),
  object(
    { source: widget, instanceId, type: literal('validation'), isValid: boolean, errors: array(object({ field: oneOf(CARD_FIELDS), message: string() })) },
    strict,
  ),
  object({ source: widget, instanceId, type: literal('error'), error: SdkErrorWire }, strict),
  object({ source: widget, instanceId, type: literal('result'), requestId: string(), ok: literal(true), transaction: relayedTransaction }, strict),
  object({ source: widget, instanceId, type: literal('result'), requestId: string(), ok: literal(false), error: SdkErrorWire }, strict),
]);
