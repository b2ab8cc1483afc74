/**
 * Mirrors of the protocol's SDK schemas (`../sdk.ts`) for the browser bundles, exported as `@svc/protocol/light`;
 * light.test.ts checks each against its zod original on generated inputs (and that each one's output type is the
 * protocol type). Host code and frame code both import from here and never from each other. The card frame's messages
 * are in ./frame-messages.ts, so that a bundle checking only options (the iframe SDK's loader) leaves the transaction out.
 */
import {
  APPEARANCE_SELECTORS,
  APPEARANCE_THEMES,
  APPEARANCE_VARIABLES,
  CREDENTIAL_PREFIXES,
  CURRENCIES,
  MAX_AMOUNT_CENTS,
  MAX_INSTALLMENTS,
  PAYMENT_METHODS,
  SDK_METHOD_TYPES,
  SDK_MODES,
} from '../constants';
import { array, boolean, number, object, oneOf, optional, pipe, recordOf, string, type Validator } from './schema';

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

/** protocol AppearanceSchema: the shape; the values are checked by sdk-core's appearance checker where they are applied. */
export const AppearanceWire = object(
  {
    theme: optional(oneOf(APPEARANCE_THEMES)),
    variables: optional(
      object(
        Object.fromEntries(APPEARANCE_VARIABLES.map((name) => [name, optional(string())])) as Record<
          (typeof APPEARANCE_VARIABLES)[number],
          Validator<string | undefined>
        >,
        { strict: true },
      ),
    ),
    rules: optional(
      object(
        Object.fromEntries(APPEARANCE_SELECTORS.map((selector) => [selector, optional(recordOf(string()))])) as Record<
          (typeof APPEARANCE_SELECTORS)[number],
          Validator<Record<string, string> | undefined>
        >,
        { strict: true },
      ),
    ),
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
    appearance: optional(AppearanceWire),
    paymentMethods: optional(array(oneOf(PAYMENT_METHODS))),
    locale: optional(string({ max: 35 })),
    maxInstallments: optional(number({ int: true, min: 1, max: MAX_INSTALLMENTS })),
  },
  { strict: true },
);

export const SdkUpdateWire = object({ appearance: optional(AppearanceWire) }, { strict: true });

export const SdkPayOptionsWire = object({ amount: Cents, currency: Currency, billingAddress: optional(BillingAddressWire) }, { strict: true });

export { InstanceId } from './ids';
