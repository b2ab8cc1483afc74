import { z } from 'zod';
import { CurrencySchema } from './currency';
import { MAX_AMOUNT_CENTS, WALLET_METHODS } from './constants';
import { PaymentSchema, RefundReasonSchema, RefundSchema, TransactionSchema } from './transaction';

/** `pay`, `authorize` and `commit` amounts: always integer cents greater than 0 (docs/integrating.md#amounts). */
export const CentsSchema = z
  .number({ error: 'must be a number of cents' })
  .int('must be a whole number of cents (100 = one unit of currency)')
  .min(1, 'must be greater than 0')
  .max(MAX_AMOUNT_CENTS, 'is larger than the service accepts');

const TokenSchema = z.string().min(1).max(200);

/** The spec's body field for the API key; `Authorization: Bearer` is preferred. */
export const ApiKeyFieldSchema = z.string().max(200).describe('API key in the body (spec compatibility); prefer Authorization: Bearer');

const TransactionNumberFieldSchema = z.string().min(1).max(64);
const ONE_TARGET = { message: 'send either token or transactionNumber', path: ['token'] };
const namesOneTarget = (body: { token?: string; transactionNumber?: string }) => (body.token === undefined) !== (body.transactionNumber === undefined);

/**
 * A body that names its authorization by exactly one of `token` and `transactionNumber`: refused otherwise, and said
 * so to the OpenAPI document (a `oneOf` of the two, each required alone), which cannot read the refinement.
 */
function namingOneTarget<S extends z.ZodObject<{ token: z.ZodOptional<z.ZodString>; transactionNumber: z.ZodOptional<z.ZodString> }>>(schema: S) {
  return schema.refine(namesOneTarget, ONE_TARGET).meta({ oneOf: [{ required: ['token'] }, { required: ['transactionNumber'] }] });
}

/**
 * `POST /transactions/pay`: capture against an authorization, named by its token or its transaction number (as void
 * takes them), or charge a tokenization token (a saved card is named by its token only).
 */
export const PayRequestSchema = namingOneTarget(
  z.strictObject({
    token: TokenSchema.optional().describe('An authorization token (capture) or a tokenization token (charge)'),
    transactionNumber: TransactionNumberFieldSchema.optional().describe("The authorization's TransactionNumber, instead of its token"),
    amount: CentsSchema,
    currency: CurrencySchema.optional().describe('Required with a tokenization token; must match the authorization otherwise'),
    apiKey: ApiKeyFieldSchema.optional(),
  }),
);
export type PayRequest = z.input<typeof PayRequestSchema>;

export const PayResponseSchema = z.object({
  payment: PaymentSchema,
  transaction: TransactionSchema,
});
export type PayResponse = z.infer<typeof PayResponseSchema>;

/** `POST /transactions/void`: by token or by transaction number. */
export const VoidRequestSchema = namingOneTarget(
  z.strictObject({
    token: TokenSchema.optional(),
    transactionNumber: TransactionNumberFieldSchema.optional(),
    apiKey: ApiKeyFieldSchema.optional(),
  }),
);
export type VoidRequest = z.input<typeof VoidRequestSchema>;

/** `POST /transactions/authorize`: a new hold with the token of the original authorization. */
export const AuthorizeRequestSchema = z.strictObject({
  token: TokenSchema,
  amount: CentsSchema,
  apiKey: ApiKeyFieldSchema.optional(),
});
export type AuthorizeRequest = z.input<typeof AuthorizeRequestSchema>;

/** `POST /transactions/:transactionNumber/refund`: give settled money back, all that is left or `amount` cents of it. */
export const RefundRequestSchema = z.strictObject({
  amount: CentsSchema.optional().describe('Cents to refund; omitted, everything still refundable'),
  reason: RefundReasonSchema.default('requested_by_customer'),
  description: z.string().max(500, 'must be at most 500 characters').optional().describe('Kept with the refund; never sent to the consumer'),
  apiKey: ApiKeyFieldSchema.optional(),
});
export type RefundRequest = z.input<typeof RefundRequestSchema>;

export const RefundResponseSchema = z.object({
  refund: RefundSchema,
  transaction: TransactionSchema,
});
export type RefundResponse = z.infer<typeof RefundResponseSchema>;

/** Bodyless merchant POSTs (cancel, closeAuth) may still carry the spec's `apiKey`. */
export const EmptyRequestSchema = z.strictObject({ apiKey: ApiKeyFieldSchema.optional() });

/** The iframe SDK's billing address (spec: "Billing address object"). Personal data: never logged. */
export const BillingAddressSchema = z.strictObject({
  city: z.string().max(100).optional(),
  email: z.string().max(254).optional(),
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  street: z.string().max(200).optional(),
  state: z.string().max(100).optional(),
  zipcode: z.string().max(20).optional(),
  mobilePhone: z.string().max(30).optional(),
  country: z.string().max(100).optional(),
});
export type BillingAddress = z.infer<typeof BillingAddressSchema>;

export const CardInputSchema = z.strictObject({
  number: z.string().max(30).describe('Digits; spaces and dashes are ignored'),
  expMonth: z.number().int().min(1).max(12),
  expYear: z.number().int().min(2000).max(2100),
  cvc: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
});
export type CardInput = z.infer<typeof CardInputSchema>;

export const WalletMethodSchema = z.enum(WALLET_METHODS);
export type WalletMethod = z.infer<typeof WalletMethodSchema>;

/** `POST /pay/:linkId`: the consumer pays on the hosted page. */
export const CardPaymentSchema = z.strictObject({
  method: z.literal('card'),
  card: CardInputSchema,
  billingAddress: BillingAddressSchema.optional(),
  installments: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("The number of payments the consumer chose (1 when left out); at most the transaction's maxInstallments"),
});
export const WalletPaymentSchema = z.strictObject({ method: WalletMethodSchema, billingAddress: BillingAddressSchema.optional() });
export const ConsumerPayRequestSchema = z.discriminatedUnion('method', [CardPaymentSchema, WalletPaymentSchema]);
export type ConsumerPayRequest = z.input<typeof ConsumerPayRequestSchema>;

/** `GET /pay/:linkId/state`: what the hosted page shows; nothing secret. */
export const PaymentLinkStateSchema = z.object({
  TransactionNumber: z.string(),
  amount: z.number().nullable(),
  amountCents: z.number().int().nullable(),
  currency: TransactionSchema.shape.currency,
  businessName: z.string(),
  products: TransactionSchema.shape.products,
  methodType: TransactionSchema.shape.methodType,
  status: TransactionSchema.shape.status,
  statusName: TransactionSchema.shape.statusName,
  timeoutDate: z.iso.datetime().nullable(),
  payable: z.boolean().describe('Whether the page still takes a payment'),
  lastFourDigits: z.string().nullable(),
  confirmationNumber: z.string().nullable().describe('The confirmation number of the approved payment, null before one'),
  refundedCents: z.number().int().describe('What was refunded to the consumer (status 13 or 14)'),
  maxInstallments: z.number().int().min(1).describe("The most payments the page offers (1: none); 1 when the merchant's processor has no installments"),
});
export type PaymentLinkState = z.infer<typeof PaymentLinkStateSchema>;

/** The sandbox test clock (docs/integrating.md#sandbox). */
export const ClockAdvanceRequestSchema = z.strictObject({
  seconds: z
    .number()
    .int()
    .min(1)
    .max(10 * 365 * 24 * 3600),
  apiKey: ApiKeyFieldSchema.optional(),
});
export const ClockSchema = z.object({
  now: z.iso.datetime().describe('The sandbox time, ISO 8601'),
  offsetSeconds: z.number().describe('How far the sandbox clock is ahead of the real one'),
});
export type ClockState = z.infer<typeof ClockSchema>;

/** A link "sent" by the sandbox message outbox (`GET /sandbox/messages`). */
export const SandboxMessageSchema = z.object({
  messageId: z.string(),
  channel: z.enum(['sms', 'email']),
  to: z.string(),
  body: z.string(),
  transactionNumber: z.string(),
  status: z.enum(['sent', 'failed']),
  /** An SMS's alphabet: `ucs2` as soon as a character is outside GSM-7 (Hebrew, Arabic, Cyrillic). Absent for an e-mail. */
  encoding: z.enum(['gsm7', 'ucs2']).optional(),
  /** How many SMS segments it costs (160 GSM-7 characters or 70 UCS-2 ones a segment). Absent for an e-mail. */
  segments: z.number().int().min(1).optional(),
  /** An e-mail's subject (it names the business). Absent for an SMS. */
  subject: z.string().optional(),
  /** An e-mail's HTML part: the text (`body`) in the language's direction, the link as a link. Absent for an SMS. */
  html: z.string().optional(),
  createdAt: z.iso.datetime(),
});
export const SandboxMessagesSchema = z.object({ messages: z.array(SandboxMessageSchema) });
export type SandboxMessages = z.infer<typeof SandboxMessagesSchema>;

export const HealthSchema = z.object({
  status: z.literal('ok'),
  mode: z.enum(['sandbox', 'production']),
  database: z.object({ status: z.literal('ok'), latencyMs: z.number() }),
});
export type Health = z.infer<typeof HealthSchema>;

/** `GET /livez`: the process serves requests, whatever its database does. */
export const LivenessSchema = z.object({ status: z.literal('ok') });
export type Liveness = z.infer<typeof LivenessSchema>;

/** One readiness check: whether it passes and, in a few words, what it found. */
export const ReadinessCheckSchema = z.object({ ok: z.boolean(), detail: z.string() });
export type ReadinessCheck = z.infer<typeof ReadinessCheckSchema>;

/**
 * `GET /readyz` on the public port: 200 `ready` when every required check passes, else 503 `not_ready`, and nothing of what the
 * checks found (the endpoint is public).
 */
export const ReadinessSchema = z.object({ status: z.enum(['ready', 'not_ready']) });
export type Readiness = z.infer<typeof ReadinessSchema>;

/** `GET /readyz` on the metrics listener (the operator's): the same verdict and each check by its name (the read replica's is reported, never required). */
export const ReadinessDetailSchema = ReadinessSchema.extend({ checks: z.record(z.string(), ReadinessCheckSchema) });
export type ReadinessDetail = z.infer<typeof ReadinessDetailSchema>;
