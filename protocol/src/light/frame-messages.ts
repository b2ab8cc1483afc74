/**
 * Mirrors of the card frame's postMessage schemas (`../sdk.ts`: host page <-> card frame), apart from the options in
 * ./sdk.ts because they carry the whole transaction. Checked against the zod originals in light.test.ts.
 */
import {
  APPEARANCE_CSS_PROPERTY,
  APPEARANCE_CSS_VALUE,
  APPEARANCE_SELECTORS,
  CARD_FIELDS,
  LANGUAGES,
  MAX_INSTALLMENTS,
  POST_MESSAGE_SOURCES,
} from '../constants';
import { array, boolean, literal, nullable, number, object, oneOf, optional, string, tuple, union, url, type Validator } from './schema';
import { AppearanceWire, BillingAddressWire, Cents, Currency, InstanceId } from './sdk';
import { SdkErrorWire } from './session';
import { BrowserTransactionWire } from './transaction';

const instanceId = InstanceId;
const host = literal(POST_MESSAGE_SOURCES.host);
const frame = literal(POST_MESSAGE_SOURCES.frame);
const strict = { strict: true };

export const HostToFrameMessageWire = union('type', [
  object(
    {
      source: host,
      instanceId,
      type: literal('init'),
      sessionId: string(),
      sessionToken: string(),
      apiBase: url,
      debug: boolean,
      maxInstallments: optional(number({ int: true, min: 1, max: MAX_INSTALLMENTS })),
    },
    strict,
  ),
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
  object({ source: host, instanceId, type: literal('appearance'), appearance: AppearanceWire }, strict),
  object({ source: host, instanceId, type: literal('locale'), locale: oneOf(LANGUAGES) }, strict),
  object({ source: host, instanceId, type: literal('cancelAuthentication'), requestId: string({ max: 64 }) }, strict),
]);

const nonNegative = number({ min: 0 });
/** protocol AppearanceDeclarationSchema */
const declaration = tuple(string({ pattern: APPEARANCE_CSS_PROPERTY }), string({ max: 400, pattern: APPEARANCE_CSS_VALUE }));
const declarations = array(declaration);

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
  object(
    {
      source: frame,
      instanceId,
      type: literal('look'),
      variables: declarations,
      rules: object(
        Object.fromEntries(APPEARANCE_SELECTORS.map((selector) => [selector, optional(declarations)])) as Record<
          (typeof APPEARANCE_SELECTORS)[number],
          Validator<[string, string][] | undefined>
        >,
        strict,
      ),
      refusals: array(object({ path: string(), reason: string() })),
    },
    strict,
  ),
  object({ source: frame, instanceId, type: literal('authentication'), requestId: string(), url }, strict),
  object({ source: frame, instanceId, type: literal('result'), requestId: string(), ok: literal(true), transaction: BrowserTransactionWire }, strict),
  object({ source: frame, instanceId, type: literal('result'), requestId: string(), ok: literal(false), error: SdkErrorWire }, strict),
]);
