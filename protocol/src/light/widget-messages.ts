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
/** The widget checked the transaction with BrowserTransactionWire when the service answered; the loader takes it as an object. */
const relayedTransaction = record as Validator<Infer<typeof TransactionWire>>;

const facadeConfig = object({ clientId: string(), debug: boolean, visualizer: boolean, payButtonId: nullable(string()) }, strict);

/** One widget → loader message: the envelope (source, instance id, type) and the message's own fields, nothing else. */
const message = <const T extends string, S extends Record<string, Validator<unknown>>>(type: T, shape: S) =>
  object({ source: widget, instanceId, type: literal(type), ...shape }, strict);

export const WidgetToLoaderMessageWire = union('type', [
  message('ready', {}),
  message('title', { title: string({ min: 1, max: 200 }) }),
  message('size', { height: nonNegative, width: nonNegative }),
  message('configured', { config: nullable(facadeConfig) }),
  message('log', { event: string(), detail: optional(unknown) }),
  message('error', { error: SdkErrorWire, debug: boolean, logged: boolean }),
  message('warning', { code: oneOf(SDK_PAGE_WARNINGS), message: string() }),
  message('paymentSelected', { paymentMethod: oneOf(PAYMENT_METHODS) }),
  message('paying', { isPaying: boolean }),
  message('validation', { isValid: boolean, errors: array(object({ field: oneOf(CARD_FIELDS), message: string() })) }),
  message('dimensions', { height: nonNegative, width: nonNegative }),
  message('result', { requestId: string(), transaction: nullable(relayedTransaction) }),
  message('unmounted', {}),
]);
