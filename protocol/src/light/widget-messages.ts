/**
 * Mirror of the iframe SDK's widget → loader messages (`../iframe-messages.ts`), which the loader parses. The loader
 * (≤ 5 KB gzip) cannot carry zod or zod/mini, nor the transaction's validator: this file imports neither ./transaction
 * (but its type) nor ./frame-messages. light.test.ts checks it against its zod original.
 */
import { CARD_FIELDS, IFRAME_MESSAGE_SOURCES, PAYMENT_METHODS, SDK_PAGE_WARNINGS } from '../constants';
import { InstanceId } from './ids';
import { array, boolean, literal, nullable, number, object, oneOf, optional, record, string, union, unknown, type Infer, type Validator } from './schema';
import { SdkErrorWire } from './sdk-error';
import type { TransactionWire } from './transaction';

const widget = literal(IFRAME_MESSAGE_SOURCES.widget);
const instanceId = InstanceId;
const strict = { strict: true };
const nonNegative = number({ min: 0 });
/** The widget checked the transaction with TransactionWire when the service answered; the loader takes it as an object. */
const relayedTransaction = record as Validator<Infer<typeof TransactionWire>>;

const facadeConfig = object({ clientId: string(), debug: boolean, visualizer: boolean, payButtonId: nullable(string()) }, strict);

export const WidgetToLoaderMessageWire = union('type', [
  object({ source: widget, instanceId, type: literal('ready') }, strict),
  object({ source: widget, instanceId, type: literal('size'), height: nonNegative, width: nonNegative }, strict),
  object({ source: widget, instanceId, type: literal('configured'), config: nullable(facadeConfig) }, strict),
  object({ source: widget, instanceId, type: literal('log'), event: string(), detail: optional(unknown) }, strict),
  object({ source: widget, instanceId, type: literal('error'), error: SdkErrorWire, debug: boolean, logged: boolean }, strict),
  object({ source: widget, instanceId, type: literal('warning'), code: oneOf(SDK_PAGE_WARNINGS), message: string() }, strict),
  object({ source: widget, instanceId, type: literal('paymentSelected'), paymentMethod: oneOf(PAYMENT_METHODS) }, strict),
  object({ source: widget, instanceId, type: literal('paying'), isPaying: boolean }, strict),
  object(
    { source: widget, instanceId, type: literal('validation'), isValid: boolean, errors: array(object({ field: oneOf(CARD_FIELDS), message: string() })) },
    strict,
  ),
  object({ source: widget, instanceId, type: literal('dimensions'), height: nonNegative, width: nonNegative }, strict),
  object({ source: widget, instanceId, type: literal('result'), requestId: string(), transaction: nullable(relayedTransaction) }, strict),
  object({ source: widget, instanceId, type: literal('unmounted') }, strict),
]);
