/**
 * Mirrors of the protocol's SDK schemas (`../sdk.ts`) for the browser bundles, exported as `@svc/protocol/light`;
 * light.test.ts checks each against its zod original on generated inputs (and that each one's output type is the
 * protocol type). Host code and frame code both import from here and never from each other. The card frame's messages
 * are in ./frame-messages.ts, so that a bundle checking only options (the iframe SDK's loader) leaves the transaction out.
 */
import { CREDENTIAL_PREFIXES, CURRENCIES, MAX_AMOUNT_CENTS, SDK_METHOD_TYPES, SDK_MODES } from '../constants';
import { boolean, number, object, oneOf, optional, pipe, string } from './schema';

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
    locale: optional(string({ max: 35 })),
  },
  { strict: true },
);

export const SdkPayOptionsWire = object({ amount: Cents, currency: Currency, billingAddress: optional(BillingAddressWire) }, { strict: true });

export { InstanceId } from './ids';
