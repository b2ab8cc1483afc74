/**
 * Mirrors of the protocol's SDK schemas (`../sdk.ts`) for the browser bundles, exported as `@svc/protocol/light`;
 * light.test.ts checks each against its zod original on generated inputs (and that each one's output type is the
 * protocol type). Host code and frame code both import from here and never from each other.
 */
import { CURRENCIES, MAX_AMOUNT_CENTS, POST_MESSAGE_SOURCES, SDK_METHOD_TYPES } from '../constants';
import { CARD_FIELDS, CREDENTIAL_PREFIXES, SDK_MODES } from '../constants';
import { array, boolean, literal, nullable, number, object, oneOf, optional, pipe, string, union, url } from './schema';
import { SdkErrorWire } from './session';
import { TransactionWire } from './transaction';

/** protocol CentsSchema */
export const Cents = number({ int: true, min: 1, max: MAX_AMOUNT_CENTS, message: 'must be a whole number of cents greater than 0 (1050 is 10.50)' });

/** protocol CurrencySchema: upper-cased, then one of the service's currencies. */
export const Currency = pipe(string(), (value) => value.toUpperCase(), oneOf(CURRENCIES, `must be one of ${CURRENCIES.join(', ')}`));

export const BillingAddressWire = object(
  {
    city: optional(string({ max: 100 })),
    email: optional(string({ max: 254 })),
    firstName: optional(string({ max: 100 })),
    lastName: optional(string({ max: 100 })),
    street: optional(string({ max: 200 })),
    state: optional(string({ max: 100 })),
    zipcode: optional(string({ max: 20 })),
    mobilePhone: optional(string({ max: 30 })),
    country: optional(string({ max: 100 })),
  },
  { strict: true },
);

export const SdkConfigWire = object(
  {
    mode: oneOf(SDK_MODES, "must be 'sandbox' or 'production'"),
    debug: optional(boolean),
    visualizer: optional(boolean),
    clientId: string({ startsWith: CREDENTIAL_PREFIXES.client, message: `must be a client ID (${CREDENTIAL_PREFIXES.client}…)` }),
    methodType: optional(oneOf(SDK_METHOD_TYPES, `must be one of ${SDK_METHOD_TYPES.join(', ')}`)),
    payButtonId: optional(string({ min: 1 })),
  },
  { strict: true },
);

export const SdkPayOptionsWire = object({ amount: Cents, currency: Currency, billingAddress: optional(BillingAddressWire) }, { strict: true });

/** protocol InstanceIdSchema */
export const InstanceId = string({ pattern: /^[A-Za-z0-9_-]{8,64}$/ });
const instanceId = InstanceId;
const host = literal(POST_MESSAGE_SOURCES.host);
const frame = literal(POST_MESSAGE_SOURCES.frame);
const strict = { strict: true };

export const HostToFrameMessageWire = union('type', [
  object({ source: host, instanceId, type: literal('init'), sessionId: string(), sessionToken: string(), apiBase: url, debug: boolean }, strict),
  object(
    {
      source: host,
      instanceId,
      type: literal('submit'),
      requestId: string({ max: 64 }),
      amount: optional(Cents),
      currency: optional(Currency),
      billingAddress: optional(BillingAddressWire),
    },
    strict,
  ),
  object({ source: host, instanceId, type: literal('reset') }, strict),
  object({ source: host, instanceId, type: literal('focus') }, strict),
]);

const nonNegative = number({ min: 0 });

export const FrameToHostMessageWire = union('type', [
  object({ source: frame, instanceId, type: literal('ready') }, strict),
  object({ source: frame, instanceId, type: literal('size'), height: nonNegative, width: nonNegative }, strict),
  object(
    {
      source: frame,
      instanceId,
      type: literal('validation'),
      isValid: boolean,
      brand: nullable(string()),
      errors: array(object({ field: oneOf(CARD_FIELDS), message: string() })),
    },
    strict,
  ),
  object({ source: frame, instanceId, type: literal('result'), requestId: string(), ok: literal(true), transaction: TransactionWire }, strict),
  object({ source: frame, instanceId, type: literal('result'), requestId: string(), ok: literal(false), error: SdkErrorWire }, strict),
]);
