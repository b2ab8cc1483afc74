/**
 * The hand-written validators of src/wire must agree with the protocol's zod schemas: same accept/refuse decision and
 * same output, on many generated inputs (valid ones, near misses, and junk). The constants must be equal.
 */
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { z } from 'zod';
import * as protocol from '@svc/protocol';
import { makeTransaction } from '../../test/fixtures/api-fixtures.js';
import * as constants from './constants';
import { parseWith, type Validator } from './schema';
import { FrameToHostMessageWire, HostToFrameMessageWire, SdkConfigWire, SdkErrorWire, SdkPayOptionsWire, SdkSessionWire } from './sdk';
import { TransactionWire } from './transaction';

const RUNS = 400;

function agree(name: string, mirror: Validator<unknown>, schema: z.ZodType, input: unknown): boolean {
  const expected = schema.safeParse(input);
  const actual = parseWith(mirror, input);
  const show = () => JSON.stringify(input, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value));
  if (actual.ok !== expected.success) {
    const zodSays = expected.success ? 'valid' : `invalid (${expected.error.issues[0]?.path.join('.')}: ${expected.error.issues[0]?.message})`;
    throw new Error(`${name}: zod says ${zodSays} but the mirror says ${actual.ok ? 'valid' : `invalid (${actual.path}: ${actual.message})`} for ${show()}`);
  }
  if (actual.ok && expected.success) expect(actual.value, `${name} output for ${show()}`).to.deep.equal(expected.data);
  return expected.success;
}

/** Runs the comparison; the inputs must include enough valid and invalid ones for the check to mean something. */
function check(name: string, mirror: Validator<unknown>, schema: z.ZodType, arbitrary: fc.Arbitrary<unknown>): void {
  let valid = 0;
  fc.assert(
    fc.property(arbitrary, (input) => {
      if (agree(name, mirror, schema, input)) valid += 1;
    }),
    { numRuns: RUNS },
  );
  expect(valid, `${name}: valid inputs out of ${RUNS}`).to.be.within(RUNS * 0.05, RUNS * 0.95);
}

/** Either a value from `valid`, or junk of any kind. */
const maybe = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: fc.anything() });
/** Strings that straddle a length limit, with astral characters (zod counts code points). */
const textAround = (max: number) =>
  fc.oneof(
    fc.string({ maxLength: max + 2 }),
    fc.string({ unit: 'binary', minLength: max - 2, maxLength: max + 2 }),
    fc.constant('😀'.repeat(max)),
    fc.constant('😀'.repeat(max + 1)),
  );
/** Records whose keys may be missing, and which sometimes carry an unknown key. */
function objectOf(model: Record<string, fc.Arbitrary<unknown>>, required: string[] = []): fc.Arbitrary<unknown> {
  const base = fc.record(model, { requiredKeys: required });
  return fc.oneof(
    { weight: 12, arbitrary: base },
    { weight: 1, arbitrary: fc.tuple(base, fc.constantFrom('extra', 'Mode', 'clientID'), fc.anything()).map(([value, key, extra]) => ({ ...value, [key]: extra })) },
    { weight: 1, arbitrary: fc.anything() },
  );
}

const cents = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -3, max: 100_000 }) },
  fc.constantFrom(0, 1, 1050, 1_000_000_000_000, 1_000_000_000_001, 2 ** 53, 10.5, 0.1, Number.NaN, Infinity, -Infinity, '1050', null),
  fc.double(),
);
const currency = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('USD', 'usd', 'Eur', 'ils', 'CAD', 'rub') },
  fc.constantFrom('GBP', '', 'US D', 'ｕｓｄ', 'ı'),
  fc.string({ maxLength: 4 }),
);
const billingAddress = objectOf({
  city: maybe(textAround(100)),
  email: maybe(textAround(254)),
  firstName: maybe(textAround(100)),
  lastName: maybe(textAround(100)),
  street: maybe(textAround(200)),
  state: maybe(textAround(100)),
  zipcode: maybe(textAround(20)),
  mobilePhone: maybe(textAround(30)),
  country: maybe(textAround(100)),
});
const isoDate = fc.oneof(
  fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom('2024-02-29T10:00:00Z', '2023-02-29T10:00:00Z', '2024-01-01T00:00Z', '2024-01-01T00:00:00+02:00', '2024-01-01T24:00:00Z', '2024-01-01 00:00:00Z', '2024-01-01T00:00:00.1234567Z', '2024-13-01T00:00:00Z'),
  fc.string(),
);
const instanceId = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/), fc.constantFrom('short', 'x'.repeat(65), 'has space 123', 'abcdefgh'));
const host = constants.POST_MESSAGE_SOURCES.host;
const frame = constants.POST_MESSAGE_SOURCES.frame;

/** A valid transaction with a few fields replaced by near misses or junk. */
const transaction = fc
  .array(
    fc.tuple(
      fc.constantFrom(...(Object.keys(makeTransaction()) as (keyof protocol.Transaction)[]), 'paymentCommit.messsage', 'confirmation', 'payments', 'authorization', 'posData', 'products'),
      fc.oneof(fc.anything(), fc.constantFrom(null, undefined, 10, 13, 'AwaitingCommit', -1, 1.5, [], {}, [{}])),
    ),
    { maxLength: 2 },
  )
  .map((changes) => {
    const value = makeTransaction() as unknown as Record<string, unknown>;
    for (const [path, replacement] of changes) {
      const [head, tail] = path.split('.');
      if (tail) value[head!] = { ...(value[head!] as object), [tail]: replacement };
      else value[head!] = replacement;
    }
    return value;
  });
const goodTransaction = fc.constantFrom(
  makeTransaction(),
  makeTransaction({ posData: { a: 1 }, authorization: { status: 'active', authorizedCents: 5, capturedCents: 0, releasedCents: 0, availableCents: 5, expiresAt: null, processor: 'alpha', supportsCloseAuth: true } }),
  makeTransaction({ payments: [{ paymentId: 'p1', amountCents: 1, status: 'succeeded', date: '2024-01-01T00:00:00Z', confirmationNumber: null }], products: [{ name: 'x', quantity: 1, amount: 1, vat: null, discount: null, posIdentifier: null }] }),
);

describe('wire mirrors agree with the protocol', () => {
  it('copies the protocol constants exactly', () => {
    expect(constants.SDK_ERROR_CODES).to.deep.equal(protocol.SDK_ERROR_CODES);
    expect(constants.PAYMENT_METHODS).to.deep.equal(protocol.PAYMENT_METHODS);
    expect(constants.WALLET_METHODS).to.deep.equal(protocol.WALLET_METHODS);
    expect(constants.SDK_METHOD_TYPES).to.deep.equal(protocol.SDK_METHOD_TYPES);
    expect(constants.SDK_MODES).to.deep.equal(protocol.SdkModeSchema.options);
    expect(constants.CURRENCIES).to.deep.equal(protocol.CURRENCIES);
    expect(constants.MAX_AMOUNT_CENTS).to.equal(protocol.MAX_AMOUNT_CENTS);
    expect(constants.POST_MESSAGE_SOURCES).to.deep.equal(protocol.POST_MESSAGE_SOURCES);
    expect(constants.CARD_FIELDS).to.deep.equal(protocol.CardFieldSchema.options);
    expect(constants.TRANSACTION_STATUS_CODES).to.deep.equal(protocol.TRANSACTION_STATUSES.map((entry) => entry.status));
    expect(constants.TRANSACTION_STATUS_NAMES).to.deep.equal(protocol.TRANSACTION_STATUSES.map((entry) => entry.statusName));
    expect(constants.METHOD_TYPES).to.deep.equal(protocol.METHOD_TYPES);
    expect(constants.SMS_STATES).to.deep.equal(protocol.SMS_STATES);
    expect(constants.ELEMENTS_VERSION).to.equal(protocol.SDK_VERSIONS.elements);
  });

  it('SdkConfig', () => {
    check(
      'SdkConfig',
      SdkConfigWire,
      protocol.SdkConfigSchema,
      objectOf(
        {
          mode: maybe(fc.constantFrom('sandbox', 'production', 'live', 'Sandbox')),
          debug: maybe(fc.boolean()),
          visualizer: maybe(fc.boolean()),
          clientId: maybe(fc.oneof(fc.string().map((rest) => `ck_${rest}`), fc.constantFrom('ck_', 'ck', 'sk_live', ''))),
          methodType: maybe(fc.constantFrom(...protocol.SDK_METHOD_TYPES, 'sale', 'AUTHORIZE')),
          payButtonId: maybe(fc.constantFrom('', 'pay', 'pay-button')),
        },
        ['mode', 'clientId'],
      ),
    );
  });

  it('SdkPayOptions', () => {
    check('SdkPayOptions', SdkPayOptionsWire, protocol.SdkPayOptionsSchema, objectOf({ amount: cents, currency: maybe(currency), billingAddress }, ['amount', 'currency']));
  });

  it('SdkSession and SdkError', () => {
    const methods = fc.array(fc.constantFrom(...protocol.PAYMENT_METHODS, 'bitcoin'), { maxLength: 5 });
    check('SdkSession', SdkSessionWire, protocol.SdkSessionSchema, objectOf({ sessionId: maybe(fc.string()), sessionToken: maybe(fc.string()), paymentMethods: maybe(methods), expiresAt: isoDate }, ['sessionId', 'sessionToken', 'paymentMethods', 'expiresAt']));
    check('SdkError', SdkErrorWire, protocol.SdkErrorSchema, objectOf({ code: maybe(fc.constantFrom(...protocol.SDK_ERROR_CODES, 'unknown')), message: maybe(fc.string()) }, ['code', 'message']));
  });

  it('Transaction', () => {
    check('Transaction', TransactionWire, protocol.TransactionSchema, fc.oneof(goodTransaction, transaction));
  });

  it('HostToFrameMessage', () => {
    const apiBase = fc.oneof(fc.constantFrom('http://127.0.0.1:8080', ' https://pay.example ', 'https://exa\tmple.com', 'not a url', 'mailto:x', 'http://', '/relative', ''), fc.webUrl());
    check(
      'HostToFrameMessage',
      HostToFrameMessageWire,
      protocol.HostToFrameMessageSchema,
      fc.oneof(
        objectOf({ source: maybe(fc.constant(host)), instanceId, type: fc.constant('init'), sessionId: maybe(fc.string()), sessionToken: maybe(fc.string()), apiBase, debug: maybe(fc.boolean()) }, ['source', 'instanceId', 'type', 'sessionId', 'sessionToken', 'apiBase', 'debug']),
        objectOf({ source: fc.constantFrom(host, frame), instanceId, type: fc.constant('submit'), requestId: maybe(textAround(64)), amount: cents, currency, billingAddress }, ['source', 'instanceId', 'type', 'requestId']),
        objectOf({ source: fc.constant(host), instanceId, type: fc.constantFrom('reset', 'focus', 'ready', 'submitted') }, ['source', 'instanceId', 'type']),
      ),
    );
  });

  it('FrameToHostMessage', () => {
    // The protocol's discriminated union has two `result` options, which zod 4 refuses at parse time
    // ("Duplicate discriminator value"); a plain union of the same options is what it means.
    const schema = z.union(protocol.FrameToHostMessageSchema.options);
    const field = fc.constantFrom('number', 'expiry', 'cvc', 'zip');
    check(
      'FrameToHostMessage',
      FrameToHostMessageWire,
      schema,
      fc.oneof(
        objectOf({ source: maybe(fc.constant(frame)), instanceId, type: fc.constant('ready') }, ['source', 'instanceId', 'type']),
        objectOf({ source: fc.constant(frame), instanceId, type: fc.constant('size'), height: maybe(fc.double()), width: maybe(fc.integer({ min: -2, max: 900 })) }, ['source', 'instanceId', 'type', 'height', 'width']),
        objectOf(
          { source: fc.constant(frame), instanceId, type: fc.constant('validation'), isValid: maybe(fc.boolean()), brand: maybe(fc.option(fc.constantFrom('visa', 'amex'))), errors: maybe(fc.array(objectOf({ field, message: maybe(fc.string()) }, ['field', 'message']), { maxLength: 3 })) },
          ['source', 'instanceId', 'type', 'isValid', 'brand', 'errors'],
        ),
        objectOf({ source: fc.constant(frame), instanceId, type: fc.constant('result'), requestId: maybe(fc.string()), ok: fc.boolean(), transaction: fc.oneof(goodTransaction, transaction) }, ['source', 'instanceId', 'type', 'requestId', 'ok', 'transaction']),
        objectOf({ source: fc.constant(frame), instanceId, type: fc.constant('result'), requestId: maybe(fc.string()), ok: fc.boolean(), error: objectOf({ code: fc.constantFrom('card_declined', 'nope'), message: maybe(fc.string()) }, ['code', 'message']) }, ['source', 'instanceId', 'type', 'requestId', 'ok', 'error']),
      ),
    );
  });
});
