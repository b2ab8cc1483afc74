import { z } from 'zod';
import {
  APPEARANCE_CSS_PROPERTY,
  APPEARANCE_CSS_VALUE,
  APPEARANCE_SELECTORS,
  APPEARANCE_THEMES,
  APPEARANCE_VARIABLES,
  CARD_FIELDS,
  CREDENTIAL_PREFIXES,
  EXPRESS_UNAVAILABLE_REASONS,
  LANGUAGES,
  PAYMENT_METHODS,
  POST_MESSAGE_SOURCES,
  SDK_ERROR_CODES,
  SDK_METHOD_TYPES,
  SDK_MODES,
} from './constants';
import { CallbackUrlSchema } from './callback-url';
import { CurrencySchema } from './currency';
import { BillingAddressSchema, CardPaymentSchema, CentsSchema, WalletMethodSchema, WalletPaymentSchema } from './lifecycle-requests';
import { checkProductAmounts, MaxInstallmentsSchema, ProductInputSchema } from './init-request';
import { BrowserTransactionSchema, ConfirmationSchema, PaymentDetailsSchema, TransactionSchema } from './transaction';
import { TransactionStatusCodeSchema } from './status';

export const SdkMethodTypeSchema = z.enum(SDK_METHOD_TYPES);
export type SdkMethodType = z.infer<typeof SdkMethodTypeSchema>;
export const SdkModeSchema = z.enum(SDK_MODES);
export type SdkMode = z.infer<typeof SdkModeSchema>;

export const PaymentMethodNameSchema = z.enum(PAYMENT_METHODS);
export type PaymentMethodName = z.infer<typeof PaymentMethodNameSchema>;

/**
 * `appearance` (sdk-elements/README.md#appearance): the shape only. Every value is a string that the card frame and the
 * iframe widget page check themselves (an allow-list of properties and values; sdk-core's shared/appearance.ts),
 * dropping what they refuse with a warning in debug mode: the merchant page is not trusted with the frame's look.
 * Elements' element applies what its card frame accepted (the frame's `look` message).
 */
export const AppearanceSchema = z.strictObject({
  theme: z.enum(APPEARANCE_THEMES).optional(),
  variables: z
    .strictObject(
      Object.fromEntries(APPEARANCE_VARIABLES.map((name) => [name, z.string().optional()])) as Record<
        (typeof APPEARANCE_VARIABLES)[number],
        z.ZodOptional<z.ZodString>
      >,
    )
    .optional(),
  rules: z
    .strictObject(
      Object.fromEntries(APPEARANCE_SELECTORS.map((selector) => [selector, z.record(z.string(), z.string()).optional()])) as Record<
        (typeof APPEARANCE_SELECTORS)[number],
        z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>
      >,
    )
    .optional(),
});
export type Appearance = z.infer<typeof AppearanceSchema>;

/** `ServiceFrontEndSDK.config(...)`: unknown options are an integration mistake, reported, not ignored. */
export const SdkConfigSchema = z.strictObject({
  mode: SdkModeSchema,
  debug: z.boolean().optional(),
  visualizer: z.boolean().optional(),
  clientId: z.string().startsWith(CREDENTIAL_PREFIXES.client, `must be a client ID (${CREDENTIAL_PREFIXES.client}…)`),
  methodType: SdkMethodTypeSchema.optional().describe('manual_capture (default), tokenize or authorize'),
  payButtonId: z.string().min(1).optional(),
  appearance: AppearanceSchema.optional(),
  paymentMethods: z.array(PaymentMethodNameSchema).optional().describe('the methods this widget offers, of those the session offers (default: all of them)'),
  locale: z
    .string()
    .max(35)
    .optional()
    .describe(`auto (default: the browser's languages) or one of ${LANGUAGES.join(', ')}; another value falls back to en with a warning`),
  maxInstallments: MaxInstallmentsSchema.optional().describe(
    'the most payments the shopper may split a card payment into (default 1: none); offered only where the processor has installments',
  ),
});
export type SdkConfig = z.input<typeof SdkConfigSchema>;

/** `ServiceFrontEndSDK.update(...)`: what may change on a mounted widget without a new session or losing what was typed. */
export const SdkUpdateSchema = z.strictObject({ appearance: AppearanceSchema.optional() });
export type SdkUpdate = z.input<typeof SdkUpdateSchema>;

/** `pay(callback, options)`: amount in cents. */
export const SdkPayOptionsSchema = z.strictObject({
  amount: CentsSchema,
  currency: CurrencySchema,
  billingAddress: BillingAddressSchema.optional(),
});
export type SdkPayOptions = z.input<typeof SdkPayOptionsSchema>;

export const SdkErrorCodeSchema = z.enum(SDK_ERROR_CODES);
export type SdkErrorCode = z.infer<typeof SdkErrorCodeSchema>;
export const SdkErrorSchema = z.object({ code: SdkErrorCodeSchema, message: z.string() });
export type SdkError = z.infer<typeof SdkErrorSchema>;

// ---- HTTP: the /sdk endpoints (client ID + Origin, then the session token) ----

export const CreateSdkSessionRequestSchema = z.strictObject({
  clientId: z.string().min(1).max(200),
  methodType: SdkMethodTypeSchema.default('manual_capture'),
  mode: SdkModeSchema,
  embeddingOrigin: z
    .string()
    .max(300)
    .optional()
    .describe(
      "Sent only by the iframe SDK's widget page, which calls from the service's own origin: the merchant page's origin that frames it, checked against the client ID's allowed origins instead of the Origin header",
    ),
  maxInstallments: MaxInstallmentsSchema.optional().describe('The most payments the card widgets offer (1 when left out: no installments)'),
});
export type CreateSdkSessionRequest = z.input<typeof CreateSdkSessionRequestSchema>;

export const SdkSessionSchema = z.object({
  sessionId: z.string(),
  sessionToken: z.string().describe("Authorises the session's payment calls (Authorization: Bearer) and its websocket (?session=)"),
  paymentMethods: z.array(PaymentMethodNameSchema),
  expiresAt: z.iso.datetime(),
  maxInstallments: z.number().int().min(1).describe("The most payments the card widgets offer (1: none); 1 when the merchant's processor has no installments"),
});
export type SdkSession = z.infer<typeof SdkSessionSchema>;

// ---- Express (spec: "Express widget payment data") ----

const partyText = (max: number) => z.string().max(max);
/** The consumer's billing or shipping details, as the Express wallet sheet collects them (personal data: never logged). */
export const PartyInformationSchema = z.object({
  fullName: partyText(200),
  firstName: partyText(100),
  lastName: partyText(100),
  addressLine1: partyText(200),
  addressLine2: partyText(200),
  city: partyText(100),
  state: partyText(100),
  postalCode: partyText(20),
  country: partyText(100),
  email: partyText(254),
});
export type PartyInformation = z.infer<typeof PartyInformationSchema>;

/**
 * `POST /sdk/sessions/:sessionId/payments`, sent by the card frame (card) or the Express component (wallets, with the
 * billing and shipping details its sheet or the browser's wallet collected; the service passes them on to nobody and
 * does not store them).
 */
const WidgetAmount = { amount: CentsSchema.optional(), currency: CurrencySchema.optional() };
const WalletParties = {
  billingInformation: z.strictObject(PartyInformationSchema.shape).optional(),
  shippingInformation: z.strictObject(PartyInformationSchema.shape).optional(),
};
export const SdkPaymentRequestSchema = z.discriminatedUnion('method', [
  CardPaymentSchema.extend(WidgetAmount),
  WalletPaymentSchema.extend({ ...WidgetAmount, ...WalletParties }),
]);
export type SdkPaymentRequest = z.input<typeof SdkPaymentRequestSchema>;

// ---- The merchant backend's commit ----

export const CommitRequestSchema = z
  .strictObject({
    methodType: SdkMethodTypeSchema.optional(),
    amount: CentsSchema,
    currency: CurrencySchema,
    callbackURL: CallbackUrlSchema.optional(),
    products: z.array(ProductInputSchema).max(500).optional(),
    posData: z.record(z.string().max(100), z.unknown()).optional(),
    apiKey: z.string().max(200).optional(),
    deviceId: z.string().max(200).optional(),
  })
  .superRefine((body, ctx) => checkProductAmounts(ctx, body.products, true));
export type CommitRequest = z.input<typeof CommitRequestSchema>;

export const CommitResponseSchema = z.object({
  success: z.literal(true),
  transactionNumber: z.string(),
  status: TransactionStatusCodeSchema.describe("The transaction's status after the commit"),
  transactionStatus: TransactionStatusCodeSchema.describe('Deprecated: the same as `status`, its former name'),
  paymentDetails: PaymentDetailsSchema.nullable(),
  confirmation: ConfirmationSchema.nullable(),
  transaction: TransactionSchema,
});
export type CommitResponse = z.infer<typeof CommitResponseSchema>;

// ---- postMessage between the Elements host (merchant page) and the secure card frame ----

const HOST = POST_MESSAGE_SOURCES.host;
const FRAME = POST_MESSAGE_SOURCES.frame;
/** Names one widget (or card frame) on a page in every postMessage it sends or takes. */
export const InstanceIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);
const instanceId = InstanceIdSchema;

/** Host → frame. Sent with targetOrigin = the frame's origin (the service), never '*'. */
export const HostToFrameMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({
    source: z.literal(HOST),
    instanceId,
    type: z.literal('init'),
    sessionId: z.string(),
    sessionToken: z.string(),
    apiBase: z.url(),
    debug: z.boolean(),
    /** The session's `maxInstallments`: above 1 the frame offers the number of payments beside the card fields. */
    maxInstallments: MaxInstallmentsSchema.optional(),
  }),
  z.strictObject({
    source: z.literal(HOST),
    instanceId,
    type: z.literal('submit'),
    requestId: z.string().max(64),
    amount: CentsSchema.optional(),
    currency: CurrencySchema.optional(),
    billingAddress: BillingAddressSchema.optional(),
  }),
  z.strictObject({ source: z.literal(HOST), instanceId, type: z.literal('reset') }),
  z.strictObject({ source: z.literal(HOST), instanceId, type: z.literal('focus') }),
  /** The widget's appearance, as the merchant gave it: the frame checks it itself before applying any of it. */
  z.strictObject({ source: z.literal(HOST), instanceId, type: z.literal('appearance'), appearance: AppearanceSchema }),
  /** The widget's language (sent after `ready` and on every change; the fields keep what was typed). */
  z.strictObject({ source: z.literal(HOST), instanceId, type: z.literal('locale'), locale: z.enum(LANGUAGES) }),
  /** The shopper ended the bank's 3-D Secure dialog of payment `requestId` (Cancel, Escape): the frame cancels it. */
  z.strictObject({ source: z.literal(HOST), instanceId, type: z.literal('cancelAuthentication'), requestId: z.string().max(64) }),
]);
export type HostToFrameMessage = z.infer<typeof HostToFrameMessageSchema>;

export const CardFieldSchema = z.enum(CARD_FIELDS);

/** A declaration the card frame accepted of an appearance: `[property, value]`, neither able to leave its declaration. */
export const AppearanceDeclarationSchema = z.tuple([z.string().regex(APPEARANCE_CSS_PROPERTY), z.string().max(400).regex(APPEARANCE_CSS_VALUE)]);

/** Frame → host. Sent with targetOrigin = the merchant page's origin the frame was created for. */
export const FrameToHostMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ source: z.literal(FRAME), instanceId, type: z.literal('ready') }),
  z.strictObject({ source: z.literal(FRAME), instanceId, type: z.literal('size'), height: z.number().nonnegative(), width: z.number().nonnegative() }),
  z.strictObject({
    source: z.literal(FRAME),
    instanceId,
    type: z.literal('validation'),
    isValid: z.boolean(),
    brand: z.string().nullable(),
    errors: z.array(z.object({ field: CardFieldSchema, message: z.string() })),
  }),
  /**
   * The frame's answer to every `appearance`, which it checked itself: the theme's variables as custom properties with
   * the accepted ones over them, each selector's accepted declarations, and what it refused (`path`, `reason`). The
   * host applies to its own parts exactly these (it has no checker of its own, and shows its default look until this
   * answer) and names the refusals in its debug warning.
   */
  z.strictObject({
    source: z.literal(FRAME),
    instanceId,
    type: z.literal('look'),
    variables: z.array(AppearanceDeclarationSchema),
    rules: z.strictObject(
      Object.fromEntries(APPEARANCE_SELECTORS.map((selector) => [selector, z.array(AppearanceDeclarationSchema).optional()])) as Record<
        (typeof APPEARANCE_SELECTORS)[number],
        z.ZodOptional<z.ZodArray<typeof AppearanceDeclarationSchema>>
      >,
    ),
    refusals: z.array(z.object({ path: z.string(), reason: z.string() })),
  }),
  /**
   * Payment `requestId` waits for the shopper's bank (3-D Secure): the host shows `url`, a page of the service's origin,
   * in its dialog until the frame's `result`, or until the shopper ends it (`cancelAuthentication`).
   */
  z.strictObject({ source: z.literal(FRAME), instanceId, type: z.literal('authentication'), requestId: z.string(), url: z.url() }),
  // One `result` type, told apart by `ok` (a discriminated union may not repeat a discriminator value).
  z.discriminatedUnion('ok', [
    z.strictObject({
      source: z.literal(FRAME),
      instanceId,
      type: z.literal('result'),
      requestId: z.string(),
      ok: z.literal(true),
      transaction: BrowserTransactionSchema,
    }),
    z.strictObject({ source: z.literal(FRAME), instanceId, type: z.literal('result'), requestId: z.string(), ok: z.literal(false), error: SdkErrorSchema }),
  ]),
]);
export type FrameToHostMessage = z.infer<typeof FrameToHostMessageSchema>;

// ---- Express: what onPay receives ----

/**
 * What Express reads of the payment's answer (the transaction, status 10): it passes these on to `onPay` and needs
 * nothing else, so its script does not carry the whole transaction's validator.
 */
export const ExpressPaymentAnswerSchema = z.object({ TransactionNumber: z.string(), status: z.number().int(), date: z.iso.datetime() });
export type ExpressPaymentAnswer = z.infer<typeof ExpressPaymentAnswerSchema>;

/** `onPay`'s payment data. `code` is the transaction's status (10, AwaitingCommit: the merchant's backend commits next). */
export const ExpressPayDataSchema = z.object({
  code: z.number(),
  method: WalletMethodSchema,
  timestamp: z.iso.datetime(),
  transactionNumber: z.string(),
  billingInformation: PartyInformationSchema,
  shippingInformation: PartyInformationSchema,
});
export type ExpressPayData = z.infer<typeof ExpressPayDataSchema>;

/** `onReady`'s detail: for each wallet, whether its button can pay, and why not (an SDK error code or an availability reason). */
export const ExpressUnavailableReasonSchema = z.union([z.enum(EXPRESS_UNAVAILABLE_REASONS), SdkErrorCodeSchema]);
export type ExpressUnavailableReason = z.infer<typeof ExpressUnavailableReasonSchema>;
export const WalletAvailabilitySchema = z.object({ canPay: z.boolean(), reason: ExpressUnavailableReasonSchema.optional() });
export type WalletAvailability = z.infer<typeof WalletAvailabilitySchema>;
export const ExpressReadyDetailSchema = z.object({ paypal: WalletAvailabilitySchema, applepay: WalletAvailabilitySchema, googlepay: WalletAvailabilitySchema });
export type ExpressReadyDetail = z.infer<typeof ExpressReadyDetailSchema>;

/**
 * `GET /sdk/manifest.json`: every SDK file the service serves, by name (`elements`, `iframe`, `express`, the frames),
 * with its address and its Subresource Integrity hash (sha384), for a merchant page's `<script integrity>`.
 */
export const SdkManifestSchema = z.object({
  files: z.record(z.string(), z.object({ url: z.string(), integrity: z.string().regex(/^sha384-[A-Za-z0-9+/]+={0,2}$/) })),
});
export type SdkManifest = z.infer<typeof SdkManifestSchema>;
