/**
 * The hand-written validators of src/light must agree with the protocol's zod schemas: same accept/refuse decision and
 * same output, on many generated inputs (valid ones, near misses, and junk), and the same output types. The constants
 * must be equal, and the light files must keep away from zod.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as protocol from '../index';
import * as light from './index';
import { readProblem } from './problem';
import { parseWith, type Validator } from './schema';
import { ExpressPayDataWire, ExpressPaymentAnswerWire } from './express';
import { RequiresActionWire, SdkErrorWire, SdkSessionWire } from './session';
import { AppearanceWire, BillingAddressWire, SdkConfigWire, SdkPayOptionsWire, SdkUpdateWire } from './sdk';
import { FrameToHostMessageWire, HostToFrameMessageWire } from './frame-messages';
import { BrowserTransactionWire, TransactionWire } from './transaction';
import { AuthenticationOutcomeWire } from './authentication';
import { BrowserTransactionUpdatedWire, PaymentLinkStateWire, StickerNextWire, TerminalCurrentWire, TransactionUpdatedNoticeWire } from './channels';
import { LoaderToWidgetMessageWire } from './loader-messages';
import { WidgetToLoaderMessageWire } from './widget-messages';
import { SAMPLE_PARTY } from '../sample-party.test-fixture';

interface WireTypes {
  BillingAddress: protocol.BillingAddress;
  SdkConfig: protocol.SdkConfig;
  Appearance: protocol.Appearance;
  SdkUpdate: protocol.SdkUpdate;
  SdkPayOptions: protocol.SdkPayOptions;
  SdkSession: protocol.SdkSession;
  SdkError: protocol.SdkError;
  RequiresAction: protocol.RequiresAction;
  Transaction: protocol.Transaction;
  BrowserTransaction: protocol.BrowserTransaction;
  HostToFrameMessage: protocol.HostToFrameMessage;
  FrameToHostMessage: protocol.FrameToHostMessage;
  ExpressPayData: protocol.ExpressPayData;
  ExpressPaymentAnswer: protocol.ExpressPaymentAnswer;
  LoaderToWidgetMessage: protocol.LoaderToWidgetMessage;
  WidgetToLoaderMessage: protocol.WidgetToLoaderMessage;
  AuthenticationOutcome: protocol.AuthenticationOutcome;
}
/** Each mirror's output is its protocol type: a mirror that drifts from the type of its schema fails the typecheck. */
const _typed: { [K in keyof WireTypes]: Validator<WireTypes[K]> } = {
  BillingAddress: BillingAddressWire,
  SdkConfig: SdkConfigWire,
  Appearance: AppearanceWire,
  SdkUpdate: SdkUpdateWire,
  SdkPayOptions: SdkPayOptionsWire,
  SdkSession: SdkSessionWire,
  SdkError: SdkErrorWire,
  RequiresAction: RequiresActionWire,
  Transaction: TransactionWire,
  BrowserTransaction: BrowserTransactionWire,
  HostToFrameMessage: HostToFrameMessageWire,
  FrameToHostMessage: FrameToHostMessageWire,
  ExpressPayData: ExpressPayDataWire,
  ExpressPaymentAnswer: ExpressPaymentAnswerWire,
  LoaderToWidgetMessage: LoaderToWidgetMessageWire,
  WidgetToLoaderMessage: WidgetToLoaderMessageWire,
  AuthenticationOutcome: AuthenticationOutcomeWire,
};

const LINKS = { iOSLink: 'svcpay://pay/x', androidLink: 'svcpay://pay/x', qrURL: 'http://localhost/pay/x' };
/** A transaction as POST /sdk/sessions/:id/payments answers it (status 10, awaiting the merchant's commit). */
function makeTransaction(overrides: Partial<protocol.Transaction> = {}): protocol.Transaction {
  const at = '2024-05-01T12:00:00.000Z';
  return {
    TransactionNumber: 'T100001',
    date: at,
    createdAt: at,
    updatedAt: at,
    timeoutDate: null,
    sequence: 1,
    amount: 10.5,
    amountCents: 1050,
    currency: 'USD',
    balance: 0,
    status: 10,
    statusName: 'AwaitingCommit',
    methodType: 'manual_capture',
    pos: null,
    posData: null,
    posReceiptsEndpoint: 'http://localhost/transactions/T100001/receipt',
    businessName: 'Demo merchant',
    businessId: 1,
    paymentMethodData: { PaymentType: 'card', directAppLinks: LINKS },
    transactionPage: LINKS,
    SMS: 'Not requested',
    paymentCommit: {
      messsage: 'Waiting for the commit',
      isPaymentCommitted: false,
      secondsToCommit: 600,
      commitLink: 'http://localhost/transactions/commitPayment/c_1',
    },
    products: [],
    productSumMismatch: false,
    confirmations: [],
    confirmation: null,
    paymentDetails: null,
    authorization: null,
    payments: [],
    refundedCents: 0,
    refundableCents: 0,
    refunds: [],
    lastDeclineCode: null,
    lastDeclineProcessorCode: null,
    ...overrides,
  };
}

const RUNS = 400;

function agree(name: string, mirror: Validator<unknown>, schema: z.ZodType, input: unknown): boolean {
  const expected = schema.safeParse(input);
  const actual = parseWith(mirror, input);
  const show = () => JSON.stringify(input, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value));
  if (actual.ok !== expected.success) {
    const zodSays = expected.success ? 'valid' : `invalid (${expected.error.issues[0]?.path.join('.')}: ${expected.error.issues[0]?.message})`;
    throw new Error(`${name}: zod says ${zodSays} but the mirror says ${actual.ok ? 'valid' : `invalid (${actual.path}: ${actual.message})`} for ${show()}`);
  }
  if (actual.ok && expected.success) expect(actual.value, `${name} output for ${show()}`).toStrictEqual(expected.data);
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
  expect(valid, `${name}: valid inputs out of ${RUNS}`).toBeGreaterThanOrEqual(RUNS * 0.05);
  expect(valid, `${name}: valid inputs out of ${RUNS}`).toBeLessThanOrEqual(RUNS * 0.95);
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
    {
      weight: 1,
      arbitrary: fc.tuple(base, fc.constantFrom('extra', 'Mode', 'clientID'), fc.anything()).map(([value, key, extra]) => ({ ...value, [key]: extra })),
    },
    { weight: 1, arbitrary: fc.anything() },
  );
}

/** Appearances: the shape's near misses (an unknown theme, variable or selector, a value that is not a string). */
const cssValue = fc.oneof(fc.constantFrom('#0570de', '1px solid red', 'url(x)', ''), fc.string({ maxLength: 12 }));
const appearance = objectOf({
  theme: maybe(fc.constantFrom(...protocol.APPEARANCE_THEMES, 'dark', 'Night')),
  variables: maybe(
    objectOf({
      colorPrimary: maybe(cssValue),
      colorText: maybe(cssValue),
      fontSizeBase: maybe(fc.oneof(cssValue, fc.constant(16))),
      spacingUnit: maybe(cssValue),
    }),
  ),
  rules: maybe(
    objectOf({
      '.Input': maybe(fc.dictionary(fc.constantFrom('color', 'borderColor', 'background-image', '__proto__'), maybe(cssValue), { maxKeys: 3 })),
      '.Tab--selected': maybe(fc.dictionary(fc.string({ maxLength: 8 }), cssValue, { maxKeys: 2 })),
      '.Tab:hover': maybe(fc.dictionary(fc.string({ maxLength: 8 }), cssValue, { maxKeys: 1 })),
    }),
  ),
});

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
  fc.constantFrom(
    '2024-02-29T10:00:00Z',
    '2023-02-29T10:00:00Z',
    '2024-01-01T00:00Z',
    '2024-01-01T00:00:00+02:00',
    '2024-01-01T24:00:00Z',
    '2024-01-01 00:00:00Z',
    '2024-01-01T00:00:00.1234567Z',
    '2024-13-01T00:00:00Z',
  ),
  fc.string(),
);
const instanceId = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/), fc.constantFrom('short', 'x'.repeat(65), 'has space 123', 'abcdefgh'));
const host = light.POST_MESSAGE_SOURCES.host;
const frame = light.POST_MESSAGE_SOURCES.frame;

/** `base` with a few fields replaced by near misses or junk. */
const nearMissesOf = (base: () => protocol.Transaction, alsoChange: string[] = []) =>
  fc
    .array(
      fc.tuple(
        fc.constantFrom(
          ...(Object.keys(base()) as (keyof protocol.Transaction)[]),
          'paymentCommit.messsage',
          'confirmation',
          'payments',
          'authorization',
          'posData',
          'products',
          ...alsoChange,
        ),
        fc.oneof(fc.anything(), fc.constantFrom(null, undefined, 10, 13, 'AwaitingCommit', -1, 1.5, [], {}, [{}])),
      ),
      { maxLength: 2 },
    )
    .map((changes) => {
      const value = base() as unknown as Record<string, unknown>;
      for (const [path, replacement] of changes) {
        const [head, tail] = path.split('.');
        if (tail) value[head!] = { ...(value[head!] as object), [tail]: replacement };
        else value[head!] = replacement;
      }
      return value;
    });
/** A valid transaction with a few fields replaced by near misses or junk. */
const transaction = nearMissesOf(makeTransaction);
const goodTransaction = fc.constantFrom(
  makeTransaction(),
  makeTransaction({
    posData: { a: 1 },
    authorization: {
      status: 'active',
      authorizedCents: 5,
      capturedCents: 0,
      releasedCents: 0,
      availableCents: 5,
      expiresAt: null,
      processor: 'alpha',
      supportsCloseAuth: true,
    },
  }),
  makeTransaction({
    status: 0,
    statusName: 'Approved',
    lastDeclineCode: 'authentication_failed',
    lastDeclineProcessorCode: 'R',
    confirmation: {
      paymentType: 'card',
      confirmationNumber: 'c1',
      fullConfirmationCode: null,
      dateApproval: '2024-01-01T00:00:00Z',
      installments: 3,
      paymentMethodName: 'Visa',
      approvedBy: null,
      providerId: null,
      requestID: null,
      authNumber: null,
      referenceNumber: null,
      acquirer: null,
      voucher: null,
      lastFourDigits: '3220',
      serviceReferenceId: null,
      threeDSecure: { authenticated: true, flow: 'challenge', version: '2.2.0', eci: '05', liabilityShift: true },
    },
  }),
  makeTransaction({
    payments: [{ paymentId: 'p1', amountCents: 1, status: 'succeeded', date: '2024-01-01T00:00:00Z', confirmationNumber: null }],
    products: [{ name: 'x', quantity: 1, amount: 1, vat: null, discount: null, posIdentifier: null }],
  }),
  makeTransaction({
    status: 13,
    statusName: 'PartiallyRefunded',
    refundedCents: 400,
    refundableCents: 650,
    refunds: [
      {
        refundId: 'rf_1',
        amountCents: 400,
        currency: 'USD',
        status: 'succeeded',
        reason: 'requested_by_customer',
        description: null,
        failureCode: null,
        processorReference: 're_1',
        createdAt: '2024-01-01T00:00:00Z',
        updatedAt: '2024-01-01T00:00:00Z',
      },
      {
        refundId: 'rf_2',
        amountCents: 50,
        currency: 'USD',
        status: 'failed',
        reason: 'other',
        description: 'mug',
        failureCode: 'refund_declined',
        processorReference: null,
        createdAt: '2024-01-01T00:00:00Z',
        updatedAt: '2024-01-01T00:00:00Z',
      },
    ],
  }),
);

/** Browser views of valid transactions, with near misses: among them the commitLink, a token or POS data put back. */
const goodBrowserTransaction = goodTransaction.map((value) => protocol.toBrowserTransaction(value));
const browserTransaction = fc.oneof(
  goodBrowserTransaction,
  nearMissesOf(() => protocol.toBrowserTransaction(makeTransaction()), ['paymentCommit.commitLink', 'paymentDetails']),
  goodTransaction,
  fc.constantFrom(
    { ...protocol.toBrowserTransaction(makeTransaction()), paymentDetails: { type: 'authorization', token: 'auth_1' } },
    { ...protocol.toBrowserTransaction(makeTransaction()), posData: {} },
  ),
);

describe('light mirrors agree with the protocol', () => {
  it('SdkConfig', () => {
    const nearMisses = objectOf(
      {
        mode: maybe(fc.constantFrom('sandbox', 'production', 'live', 'Sandbox')),
        debug: maybe(fc.boolean()),
        visualizer: maybe(fc.boolean()),
        clientId: maybe(
          fc.oneof(
            fc.string().map((rest) => `ck_${rest}`),
            fc.constantFrom('ck_', 'ck', 'sk_live', ''),
          ),
        ),
        methodType: maybe(fc.constantFrom(...protocol.SDK_METHOD_TYPES, 'sale', 'AUTHORIZE')),
        payButtonId: maybe(fc.constantFrom('', 'pay', 'pay-button')),
        appearance,
        paymentMethods: maybe(fc.array(fc.constantFrom(...protocol.PAYMENT_METHODS, 'bitcoin'), { maxLength: 3 })),
      },
      ['mode', 'clientId'],
    );
    // Near misses alone are valid about 9 % of the time, close to `check`'s 5 % bound: plain valid configs too.
    const plain = fc.record({ mode: fc.constantFrom(...protocol.SDK_MODES), clientId: fc.string().map((rest) => `ck_${rest}`) });
    check('SdkConfig', SdkConfigWire, protocol.SdkConfigSchema, fc.oneof(nearMisses, plain));
  });

  it('Appearance and SdkUpdate', () => {
    // The near misses alone are valid about 6 % of the time, at the edge of `check`'s 5 % bound (one run in ten fell
    // under it): plain valid appearances too.
    const plain = fc.record({ theme: fc.constantFrom(...protocol.APPEARANCE_THEMES) }, { requiredKeys: [] });
    const appearances = fc.oneof(appearance, plain);
    check('Appearance', AppearanceWire, protocol.AppearanceSchema, appearances);
    check('SdkUpdate', SdkUpdateWire, protocol.SdkUpdateSchema, objectOf({ appearance: appearances }));
  });

  it('SdkPayOptions', () => {
    // The near misses alone are valid about 5 % of the time, at the edge of `check`'s bound: plain valid options too.
    const plain = fc.record({ amount: fc.integer({ min: 1, max: protocol.MAX_AMOUNT_CENTS }), currency: fc.constantFrom(...protocol.CURRENCIES) });
    check(
      'SdkPayOptions',
      SdkPayOptionsWire,
      protocol.SdkPayOptionsSchema,
      fc.oneof(objectOf({ amount: cents, currency: maybe(currency), billingAddress }, ['amount', 'currency']), plain),
    );
  });

  it('SdkSession and SdkError', () => {
    const methods = fc.array(fc.constantFrom(...protocol.PAYMENT_METHODS, 'bitcoin'), { maxLength: 5 });
    check(
      'SdkSession',
      SdkSessionWire,
      protocol.SdkSessionSchema,
      objectOf(
        {
          sessionId: maybe(fc.string()),
          sessionToken: maybe(fc.string()),
          paymentMethods: maybe(methods),
          expiresAt: isoDate,
          // Mostly valid, so that with the other fields enough sessions are valid to compare both ways.
          maxInstallments: maybe(
            fc.oneof(
              { weight: 8, arbitrary: fc.integer({ min: 1, max: 40 }) },
              { weight: 1, arbitrary: fc.integer({ min: -1, max: 0 }) },
              { weight: 1, arbitrary: fc.constant(1.5) },
            ),
          ),
        },
        ['sessionId', 'sessionToken', 'paymentMethods', 'expiresAt', 'maxInstallments'],
      ),
    );
    const action = objectOf(
      { type: maybe(fc.constantFrom('three_d_secure', 'redirect')), url: maybe(fc.constantFrom('http://localhost/authentication/a1', 'not a url')) },
      ['type', 'url'],
    );
    check(
      'RequiresAction',
      RequiresActionWire,
      protocol.RequiresActionSchema,
      fc.oneof(
        fc.constant({ status: 'requires_action', action: { type: 'three_d_secure', url: 'https://pay.example/authentication/auth_1' } }),
        objectOf(
          { status: maybe(fc.constantFrom('requires_action', 'succeeded')), action: maybe(action), transactionNumber: maybe(fc.string({ maxLength: 8 })) },
          ['status', 'action'],
        ),
      ),
    );
    check(
      'SdkError',
      SdkErrorWire,
      protocol.SdkErrorSchema,
      objectOf({ code: maybe(fc.constantFrom(...protocol.SDK_ERROR_CODES, 'unknown')), message: maybe(fc.string()) }, ['code', 'message']),
    );
  });

  it('Transaction', () => {
    check('Transaction', TransactionWire, protocol.TransactionSchema, fc.oneof(goodTransaction, transaction));
    // JSON.parse('-0') is -0, which equals the status 0; zod hands it on as given, and so must the mirror.
    expect(agree('Transaction', TransactionWire, protocol.TransactionSchema, makeTransaction({ status: -0 as protocol.Transaction['status'] }))).toBe(true);
  });

  it('BrowserTransaction', () => {
    check('BrowserTransaction', BrowserTransactionWire, protocol.BrowserTransactionSchema, browserTransaction);
    // What the service holds is refused: a browser view never carries the commitLink.
    expect(agree('BrowserTransaction', BrowserTransactionWire, protocol.BrowserTransactionSchema, makeTransaction())).toBe(false);
    expect(agree('BrowserTransaction', BrowserTransactionWire, protocol.BrowserTransactionSchema, protocol.toBrowserTransaction(makeTransaction()))).toBe(true);
  });

  it('HostToFrameMessage', () => {
    const apiBase = fc.oneof(
      fc.constantFrom('http://127.0.0.1:8080', ' https://pay.example ', 'https://exa\tmple.com', 'not a url', 'mailto:x', 'http://', '/relative', ''),
      fc.webUrl(),
    );
    check(
      'HostToFrameMessage',
      HostToFrameMessageWire,
      protocol.HostToFrameMessageSchema,
      fc.oneof(
        objectOf(
          {
            source: maybe(fc.constant(host)),
            instanceId,
            type: fc.constant('init'),
            sessionId: maybe(fc.string()),
            sessionToken: maybe(fc.string()),
            apiBase,
            debug: maybe(fc.boolean()),
            maxInstallments: fc.constantFrom(1, 12, 36, 0, 37, 2.5, '3'),
          },
          ['source', 'instanceId', 'type', 'sessionId', 'sessionToken', 'apiBase', 'debug'],
        ),
        objectOf({ source: fc.constant(host), instanceId, type: fc.constant('cancelAuthentication'), requestId: maybe(textAround(64)) }, [
          'source',
          'instanceId',
          'type',
          'requestId',
        ]),
        objectOf(
          {
            source: fc.constantFrom(host, frame),
            instanceId,
            type: fc.constant('submit'),
            requestId: maybe(textAround(64)),
            amount: cents,
            currency,
            billingAddress,
          },
          ['source', 'instanceId', 'type', 'requestId'],
        ),
        objectOf({ source: fc.constant(host), instanceId, type: fc.constantFrom('reset', 'focus', 'ready', 'submitted') }, ['source', 'instanceId', 'type']),
        objectOf({ source: fc.constant(host), instanceId, type: fc.constant('appearance'), appearance }, ['source', 'instanceId', 'type']),
      ),
    );
  });

  // The protocol's discriminated union has two `result` options, which zod 4 refuses at parse time
  // ("Duplicate discriminator value"); a plain union of the same options is what it means.
  const frameToHost = z.union(protocol.FrameToHostMessageSchema.options);

  it('FrameToHostMessage look: only declarations whose property and value cannot leave their declaration', () => {
    const property = fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom('color', 'border-top-color', '--svc-color-accent') },
      { weight: 1, arbitrary: fc.constantFrom('Color', '-x', 'color:red', '--', '') },
    );
    const value = fc.oneof(
      {
        weight: 12,
        arbitrary: fc.constantFrom('#0570de', 'var(--svc-color-accent)', 'system-ui, -apple-system, "Segoe UI"', '0 1px 2px rgba(0, 0, 0, 0.1)', ''),
      },
      { weight: 1, arbitrary: fc.constantFrom('red;x', 'a}b{', 'x\\9', 'a:b', 'a\nb', '@import', 'a'.repeat(400), 'a'.repeat(401)) },
      { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
    );
    const declaration = fc.oneof(
      { weight: 24, arbitrary: fc.tuple(property, value) },
      { weight: 1, arbitrary: fc.array(fc.constantFrom('color', 'red'), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.anything() },
    );
    const declarations = maybe(fc.array(declaration, { maxLength: 2 }));
    check(
      'FrameToHostMessage look',
      FrameToHostMessageWire,
      frameToHost,
      objectOf(
        {
          source: fc.constant(frame),
          instanceId,
          type: fc.constant('look'),
          variables: declarations,
          rules: maybe(objectOf({ '.Input': declarations, '.Tab--selected': declarations })),
          refusals: maybe(fc.array(objectOf({ path: maybe(fc.string()), reason: maybe(fc.string()) }, ['path', 'reason']), { maxLength: 2 })),
        },
        ['source', 'instanceId', 'type', 'variables', 'rules', 'refusals'],
      ),
    );
  });

  it('FrameToHostMessage', () => {
    const schema = frameToHost;
    const field = fc.constantFrom('number', 'expiry', 'cvc', 'zip');
    check(
      'FrameToHostMessage',
      FrameToHostMessageWire,
      schema,
      fc.oneof(
        objectOf({ source: maybe(fc.constant(frame)), instanceId, type: fc.constant('ready') }, ['source', 'instanceId', 'type']),
        objectOf(
          {
            source: fc.constant(frame),
            instanceId,
            type: fc.constant('authentication'),
            requestId: maybe(fc.string()),
            url: fc.oneof(fc.webUrl(), fc.constantFrom('not a url', '/authentication/auth_1', '')),
          },
          ['source', 'instanceId', 'type', 'requestId', 'url'],
        ),
        objectOf(
          { source: fc.constant(frame), instanceId, type: fc.constant('size'), height: maybe(fc.double()), width: maybe(fc.integer({ min: -2, max: 900 })) },
          ['source', 'instanceId', 'type', 'height', 'width'],
        ),
        objectOf(
          {
            source: fc.constant(frame),
            instanceId,
            type: fc.constant('validation'),
            isValid: maybe(fc.boolean()),
            brand: maybe(fc.option(fc.constantFrom('visa', 'amex'))),
            errors: maybe(fc.array(objectOf({ field, message: maybe(fc.string()) }, ['field', 'message']), { maxLength: 3 })),
          },
          ['source', 'instanceId', 'type', 'isValid', 'brand', 'errors'],
        ),
        objectOf(
          {
            source: fc.constant(frame),
            instanceId,
            type: fc.constant('result'),
            requestId: maybe(fc.string()),
            ok: fc.boolean(),
            transaction: fc.oneof(goodTransaction, transaction),
          },
          ['source', 'instanceId', 'type', 'requestId', 'ok', 'transaction'],
        ),
        objectOf(
          {
            source: fc.constant(frame),
            instanceId,
            type: fc.constant('result'),
            requestId: maybe(fc.string()),
            ok: fc.boolean(),
            error: objectOf({ code: fc.constantFrom('card_declined', 'nope'), message: maybe(fc.string()) }, ['code', 'message']),
          },
          ['source', 'instanceId', 'type', 'requestId', 'ok', 'error'],
        ),
      ),
    );
  });
});

describe('light mirrors of the consumer channels agree with the protocol', () => {
  const goodState: protocol.PaymentLinkState = {
    TransactionNumber: 'T100001',
    amount: 12.5,
    amountCents: 1250,
    currency: 'USD',
    businessName: 'Corner Shop',
    products: [{ name: 'Tea', quantity: 2, amount: 6.25, vat: null, discount: null, posIdentifier: null }],
    methodType: 'sale',
    status: 1,
    statusName: 'Pending',
    timeoutDate: null,
    payable: true,
    lastFourDigits: null,
    confirmationNumber: null,
    refundedCents: 0,
    maxInstallments: 1,
  };
  /** A valid state with a field or two replaced by near misses or junk. */
  const state = fc
    .array(
      fc.tuple(
        fc.constantFrom(...(Object.keys(goodState) as (keyof protocol.PaymentLinkState)[])),
        fc.oneof(fc.anything(), fc.constantFrom(null, undefined, 13, 'Pending', 1.5, '2024-01-01T00:00:00Z', [])),
      ),
      { maxLength: 2 },
    )
    .map((changes) => {
      const value = { ...goodState } as Record<string, unknown>;
      for (const [key, replacement] of changes) value[key] = replacement;
      return value;
    });

  it('PaymentLinkState and TerminalCurrent', () => {
    check('PaymentLinkState', PaymentLinkStateWire, protocol.PaymentLinkStateSchema, state);
    check(
      'TerminalCurrent',
      TerminalCurrentWire,
      protocol.TerminalCurrentSchema,
      objectOf({ transaction: fc.oneof(fc.constant(null), state) }, ['transaction']),
    );
  });

  it("AuthenticationOutcome (the sandbox bank page's answer)", () => {
    check(
      'AuthenticationOutcome',
      AuthenticationOutcomeWire,
      protocol.AuthenticationOutcomeSchema,
      objectOf({ outcome: maybe(fc.constantFrom('authenticated', 'failed', 'cancelled')), returnUrl: maybe(fc.option(fc.webUrl())) }, ['outcome', 'returnUrl']),
    );
  });

  it('StickerNext and the websocket update notice', () => {
    check(
      'StickerNext',
      StickerNextWire,
      protocol.StickerNextSchema,
      objectOf({ type: fc.constantFrom('waiting', 'payment', 'other'), url: maybe(fc.webUrl()) }, ['type']),
    );
    const notice = protocol.WsTransactionUpdatedSchema.pick({ type: true, eventId: true, sequence: true });
    check(
      'TransactionUpdatedNotice',
      TransactionUpdatedNoticeWire,
      notice,
      objectOf({ type: fc.constantFrom('transaction.updated', 'subscribed'), eventId: maybe(fc.string()), sequence: maybe(fc.integer({ min: -1, max: 10 })) }, [
        'type',
        'eventId',
        'sequence',
      ]),
    );
    check(
      'BrowserTransactionUpdated',
      BrowserTransactionUpdatedWire,
      protocol.WsTransactionUpdatedSchema.extend({ transaction: protocol.BrowserTransactionSchema }),
      objectOf(
        {
          type: fc.constantFrom('transaction.updated', 'subscribed'),
          eventId: maybe(fc.string()),
          sequence: maybe(fc.integer({ min: -1, max: 10 })),
          transaction: browserTransaction,
        },
        ['type', 'eventId', 'sequence', 'transaction'],
      ),
    );
  });
});

describe('Express', () => {
  it('ExpressPayData', () => {
    const party = objectOf(
      {
        fullName: maybe(textAround(200)),
        firstName: maybe(textAround(100)),
        lastName: maybe(textAround(100)),
        addressLine1: maybe(textAround(200)),
        addressLine2: maybe(textAround(200)),
        city: maybe(textAround(100)),
        state: maybe(textAround(100)),
        postalCode: maybe(textAround(20)),
        country: maybe(textAround(100)),
        email: maybe(textAround(254)),
      },
      ['fullName', 'firstName', 'lastName', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country', 'email'],
    );
    const data = objectOf(
      {
        code: maybe(fc.constantFrom(10, 0, 1.5, -1)),
        method: maybe(fc.constantFrom(...protocol.WALLET_METHODS, 'card', 'PayPal')),
        timestamp: isoDate,
        transactionNumber: maybe(fc.string()),
        billingInformation: party,
        shippingInformation: party,
      },
      ['code', 'method', 'timestamp', 'transactionNumber', 'billingInformation', 'shippingInformation'],
    );
    const plainParty = SAMPLE_PARTY;
    const plain = fc.record({
      code: fc.integer(),
      method: fc.constantFrom(...protocol.WALLET_METHODS),
      timestamp: fc.constant('2024-05-01T12:00:00.000Z'),
      transactionNumber: fc.string(),
      billingInformation: fc.constant(plainParty),
      shippingInformation: fc.constant({ ...plainParty, extra: 1 }),
    });
    check('ExpressPayData', ExpressPayDataWire, protocol.ExpressPayDataSchema, fc.oneof(data, plain));
  });

  it('ExpressPaymentAnswer: what Express reads of the transaction', () => {
    const broken = fc
      .tuple(fc.constantFrom('TransactionNumber', 'status', 'date'), fc.oneof(fc.anything(), fc.constantFrom(null, undefined, 10.5, '10', 'yesterday', 7)))
      .map(([key, value]) => ({ ...makeTransaction(), [key]: value }));
    check('ExpressPaymentAnswer', ExpressPaymentAnswerWire, protocol.ExpressPaymentAnswerSchema, fc.oneof(goodTransaction, transaction, broken));
  });

  it('majorToCents is what the Express amount prop is read with', () => {
    expect(light.majorToCents).toBe(protocol.majorToCents);
    expect(['10.005', '-1', 'abc', '10.50', '10'].map((text) => light.majorToCents(text))).toEqual([null, -100, null, 1050, 1000]);
  });
});

describe('light mirrors agree with the iframe SDK protocol', () => {
  const loader = light.IFRAME_MESSAGE_SOURCES.loader;
  const widget = light.IFRAME_MESSAGE_SOURCES.widget;

  it('LoaderToWidgetMessage', () => {
    check(
      'LoaderToWidgetMessage',
      LoaderToWidgetMessageWire,
      protocol.LoaderToWidgetMessageSchema,
      fc.oneof(
        objectOf(
          { source: maybe(fc.constantFrom(loader, widget)), instanceId, type: fc.constant('config'), options: fc.anything(), replay: maybe(fc.boolean()) },
          ['source', 'instanceId', 'type', 'options', 'replay'],
        ),
        objectOf({ source: fc.constant(loader), instanceId, type: fc.constant('update'), options: fc.oneof(fc.anything(), appearance) }, [
          'source',
          'instanceId',
          'type',
        ]),
        objectOf({ source: fc.constant(loader), instanceId, type: fc.constant('init'), container: maybe(fc.string()) }, [
          'source',
          'instanceId',
          'type',
          'container',
        ]),
        objectOf(
          {
            source: fc.constant(loader),
            instanceId,
            type: fc.constant('pay'),
            requestId: maybe(fc.oneof(textAround(64), fc.constant(''))),
            options: fc.oneof(fc.anything(), billingAddress),
            button: maybe(fc.boolean()),
            callback: maybe(fc.boolean()),
          },
          ['source', 'instanceId', 'type', 'requestId', 'button', 'callback'],
        ),
        objectOf(
          { source: fc.constant(loader), instanceId, type: fc.constant('notAFunction'), method: maybe(fc.constantFrom(...protocol.SDK_CALLBACK_NAMES, 'pay')) },
          ['source', 'instanceId', 'type', 'method'],
        ),
        objectOf(
          { source: fc.constant(loader), instanceId, type: fc.constant('notFound'), element: maybe(fc.constantFrom(...protocol.SDK_PAGE_ELEMENTS, 'form')) },
          ['source', 'instanceId', 'type', 'element'],
        ),
        objectOf({ source: fc.constant(loader), instanceId, type: fc.constantFrom('fault', 'ready'), method: maybe(fc.string()), detail: maybe(fc.string()) }, [
          'source',
          'instanceId',
          'type',
          'method',
          'detail',
        ]),
        // Near misses alone are rarely valid: plain valid messages too.
        fc.record({
          source: fc.constant(loader),
          instanceId: fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
          type: fc.constant('pay'),
          requestId: fc.constantFrom('r1', 'ab-2', ''),
          options: fc.anything(),
          button: fc.boolean(),
          callback: fc.boolean(),
        }),
      ),
    );
  });

  it('WidgetToLoaderMessage', () => {
    const method = fc.constantFrom(...protocol.PAYMENT_METHODS, 'bitcoin');
    const field = fc.constantFrom('number', 'expiry', 'cvc', 'zip');
    const error = objectOf({ code: fc.constantFrom('card_declined', 'client_id_unknown', 'nope'), message: maybe(fc.string()) }, ['code', 'message']);
    const config = fc.oneof(
      fc.constant(null),
      objectOf({ clientId: maybe(fc.string()), debug: maybe(fc.boolean()), visualizer: maybe(fc.boolean()), payButtonId: maybe(fc.option(fc.string())) }, [
        'clientId',
        'debug',
        'visualizer',
        'payButtonId',
      ]),
    );
    const size = (type: string) =>
      objectOf(
        { source: fc.constant(widget), instanceId, type: fc.constant(type), height: maybe(fc.double()), width: maybe(fc.integer({ min: -2, max: 900 })) },
        ['source', 'instanceId', 'type', 'height', 'width'],
      );
    check(
      'WidgetToLoaderMessage',
      WidgetToLoaderMessageWire,
      protocol.WidgetToLoaderMessageSchema,
      fc.oneof(
        objectOf({ source: maybe(fc.constantFrom(widget, loader)), instanceId, type: fc.constantFrom('ready', 'unmounted') }, ['source', 'instanceId', 'type']),
        size('size'),
        size('dimensions'),
        objectOf({ source: fc.constant(widget), instanceId, type: fc.constant('title'), title: maybe(textAround(200)) }, [
          'source',
          'instanceId',
          'type',
          'title',
        ]),
        objectOf({ source: fc.constant(widget), instanceId, type: fc.constant('configured'), config }, ['source', 'instanceId', 'type', 'config']),
        objectOf({ source: fc.constant(widget), instanceId, type: fc.constant('log'), event: maybe(fc.string()), detail: fc.anything() }, [
          'source',
          'instanceId',
          'type',
          'event',
        ]),
        objectOf(
          {
            source: fc.constant(widget),
            instanceId,
            type: fc.constant('warning'),
            code: maybe(fc.constantFrom(...protocol.SDK_PAGE_WARNINGS, 'x')),
            message: maybe(fc.string()),
          },
          ['source', 'instanceId', 'type', 'code', 'message'],
        ),
        objectOf({ source: fc.constant(widget), instanceId, type: fc.constant('paymentSelected'), paymentMethod: maybe(method) }, [
          'source',
          'instanceId',
          'type',
          'paymentMethod',
        ]),
        objectOf({ source: fc.constant(widget), instanceId, type: fc.constant('paying'), isPaying: maybe(fc.boolean()) }, [
          'source',
          'instanceId',
          'type',
          'isPaying',
        ]),
        objectOf(
          {
            source: fc.constant(widget),
            instanceId,
            type: fc.constant('validation'),
            isValid: maybe(fc.boolean()),
            errors: maybe(fc.array(objectOf({ field, message: maybe(fc.string()) }, ['field', 'message']), { maxLength: 3 })),
          },
          ['source', 'instanceId', 'type', 'isValid', 'errors'],
        ),
        objectOf({ source: fc.constant(widget), instanceId, type: fc.constant('error'), error, debug: maybe(fc.boolean()), logged: maybe(fc.boolean()) }, [
          'source',
          'instanceId',
          'type',
          'error',
          'debug',
          'logged',
        ]),
        objectOf(
          {
            source: fc.constant(widget),
            instanceId,
            type: fc.constant('result'),
            requestId: maybe(fc.string()),
            transaction: fc.oneof(goodTransaction, fc.constant(null), fc.anything()),
          },
          ['source', 'instanceId', 'type', 'requestId', 'transaction'],
        ),
      ),
    );
  });
});

describe('readProblem', () => {
  it('reads every problem the service builds', async () => {
    for (const code of protocol.ApiErrorCodeSchema.options) {
      const problem = protocol.problemFor(code, `detail of ${code}`, 'req-1', [
        { path: 'card.number', message: 'wrong' },
        { path: 'amount', message: 'wrong' },
      ]);
      const response = new Response(JSON.stringify(problem), { status: problem.status, headers: { 'content-type': protocol.PROBLEM_CONTENT_TYPE } });
      expect(await readProblem(response)).toStrictEqual({
        status: problem.status,
        code,
        detail: `detail of ${code}`,
        paths: ['card.number', 'amount'],
        requestId: 'req-1',
      });
    }
  });

  it('keeps the status alone of an answer that is not problem+json', async () => {
    const page = new Response('<html>Bad gateway</html>', { status: 502, headers: { 'x-request-id': 'req-proxy' } });
    expect(await readProblem(page)).toStrictEqual({ status: 502, code: null, detail: null, paths: [], requestId: 'req-proxy' });
    const odd = new Response(JSON.stringify({ code: 7, errors: [null, { path: 3 }, { path: 'currency' }] }), { status: 400 });
    expect(await readProblem(odd)).toStrictEqual({ status: 400, code: null, detail: null, paths: ['currency'], requestId: null });
  });
});

describe('the light files', () => {
  it('import only each other, ../constants, ../endpoint-paths and ../money (never zod nor the package index)', () => {
    const dir = dirname(fileURLToPath(import.meta.url));
    const files = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(files).toContain('index.ts');
    for (const file of files) {
      for (const [, specifier] of readFileSync(join(dir, file), 'utf8').matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^(?:\.\/[\w-]+|\.\.\/constants|\.\.\/endpoint-paths|\.\.\/money)$/);
      }
    }
  });
});
