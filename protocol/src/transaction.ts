import { z } from 'zod';
import { CURRENCIES, METHOD_TYPES, REFUND_REASONS, REFUND_STATES, SMS_STATES } from './constants';
import { ThreeDSecureSchema } from './authentication';
import { TransactionStatusCodeSchema, TransactionStatusNameSchema } from './status';

export const MethodTypeSchema = z.enum(METHOD_TYPES);
export type MethodType = z.infer<typeof MethodTypeSchema>;

export const DirectAppLinksSchema = z.object({
  iOSLink: z.string(),
  androidLink: z.string(),
  qrURL: z.string(),
});

export const ProductSchema = z.object({
  name: z.string(),
  quantity: z.number().int(),
  amount: z.number().describe('Unit price, in major units'),
  vat: z.number().nullable(),
  discount: z.number().nullable(),
  posIdentifier: z.string().nullable(),
});
export type Product = z.infer<typeof ProductSchema>;

export const ConfirmationSchema = z.object({
  paymentType: z.string().nullable(),
  confirmationNumber: z.string().nullable(),
  fullConfirmationCode: z.string().nullable(),
  dateApproval: z.iso.datetime().nullable(),
  installments: z.number().nullable(),
  paymentMethodName: z.string().nullable(),
  approvedBy: z.string().nullable(),
  providerId: z.string().nullable(),
  requestID: z.string().nullable(),
  authNumber: z.string().nullable(),
  referenceNumber: z.string().nullable(),
  acquirer: z.string().nullable(),
  voucher: z.string().nullable(),
  lastFourDigits: z.string().nullable(),
  serviceReferenceId: z.string().nullable(),
  threeDSecure: ThreeDSecureSchema.nullable().describe('The 3-D Secure authentication of the payment; null when none took place'),
});
export type Confirmation = z.infer<typeof ConfirmationSchema>;

export const PaymentCommitSchema = z.object({
  messsage: z.string().describe('Spelled with three s, as in the spec'),
  isPaymentCommitted: z.boolean(),
  secondsToCommit: z.number().int(),
  commitLink: z.string().nullable(),
});

export const PaymentDetailsSchema = z.object({
  type: z.enum(['authorization', 'token']),
  token: z.string(),
});

export const AUTHORIZATION_STATES = ['active', 'captured', 'voided', 'closed', 'expired'] as const;
export const AuthorizationSchema = z.object({
  status: z.enum(AUTHORIZATION_STATES),
  authorizedCents: z.number().int(),
  capturedCents: z.number().int(),
  releasedCents: z.number().int(),
  availableCents: z.number().int(),
  expiresAt: z.iso.datetime().nullable(),
  processor: z.string().nullable(),
  supportsCloseAuth: z.boolean(),
});
export type Authorization = z.infer<typeof AuthorizationSchema>;

export const PaymentSchema = z.object({
  paymentId: z.string(),
  amountCents: z.number().int(),
  status: z
    .enum(['succeeded', 'failed', 'pending'])
    .describe("pending while the processor has taken the capture and not yet told its outcome (Adyen's, by webhook): its amount stays reserved"),
  date: z.iso.datetime(),
  confirmationNumber: z.string().nullable(),
});
export type Payment = z.infer<typeof PaymentSchema>;

export const RefundReasonSchema = z.enum(REFUND_REASONS);
export type RefundReason = z.infer<typeof RefundReasonSchema>;

/** One refund of a transaction (docs/integrating.md#refunds): money given back, or asked back and refused. */
export const RefundSchema = z.object({
  refundId: z.string(),
  amountCents: z.number().int(),
  currency: z.enum(CURRENCIES),
  status: z.enum(REFUND_STATES).describe("pending until the processor answers; failed keeps the processor's failureCode"),
  reason: RefundReasonSchema.nullable().describe("Why the merchant refunded; null only in a browser's view of the transaction"),
  description: z.string().nullable().describe("The merchant's note; never shown to the consumer"),
  failureCode: z.string().nullable(),
  processorReference: z
    .string()
    .nullable()
    .describe("The processor's id of the refund (a Stripe `re_…`) once it succeeded; null where the processor gives none"),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Refund = z.infer<typeof RefundSchema>;

/** The transaction object (docs/integrating.md#the-transaction-object): every field of the spec always present, null where unknown. */
export const TransactionSchema = z.object({
  TransactionNumber: z.string().describe('Identifier of the transaction; the path parameter transactionNumber'),
  date: z.iso.datetime().describe('ISO 8601 creation time'),
  amount: z.number().nullable().describe('Major units; null for an authorization created without an amount'),
  amountCents: z.number().int().nullable(),
  currency: z.enum(CURRENCIES),
  status: TransactionStatusCodeSchema,
  statusName: TransactionStatusNameSchema,
  methodType: MethodTypeSchema,
  pos: z.string().nullable(),
  posReceiptsEndpoint: z.string(),
  posData: z.record(z.string(), z.unknown()).nullable(),
  businessName: z.string(),
  businessId: z.number().int(),
  timeoutDate: z.iso.datetime().nullable().describe('When a pending transaction times out (status 3); null for none'),
  paymentMethodData: z.object({
    PaymentType: z.string().nullable(),
    directAppLinks: DirectAppLinksSchema,
  }),
  SMS: z.enum(SMS_STATES),
  paymentCommit: PaymentCommitSchema,
  products: z.array(ProductSchema),
  productSumMismatch: z.boolean(),
  confirmations: z.array(ConfirmationSchema),
  confirmation: ConfirmationSchema.nullable(),
  transactionPage: DirectAppLinksSchema,
  balance: z.number().describe('availableCents in major units; 0 when not an authorization'),
  paymentDetails: PaymentDetailsSchema.nullable(),
  authorization: AuthorizationSchema.nullable(),
  payments: z.array(PaymentSchema),
  refundedCents: z.number().int().describe('What succeeded refunds gave back'),
  refundableCents: z.number().int().describe('What a refund may still take: settled, less refunded and refunds in flight; 0 where no refund applies'),
  refunds: z.array(RefundSchema).describe('Oldest first'),
  lastDeclineCode: z
    .string()
    .nullable()
    .describe("The code of the consumer's most recent declined attempt (card_declined, insufficient_funds, authentication_failed, ...); null when none"),
  lastDeclineProcessorCode: z.string().nullable().describe("The processor's own code of that decline, where there is one"),
  sequence: z.number().int().min(1).describe('Starts at 1 and grows by 1 with every update; callbacks and websocket messages carry it'),
  updatedAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
});
export type Transaction = z.infer<typeof TransactionSchema>;

/**
 * The transaction as a consumer's browser may see it: an SDK payment's answer, the card frame's and the iframe widget's
 * result, the updates of a link (`?link=`) or SDK session (`?session=`) websocket. Three things are the merchant's
 * backend's alone and read null here:
 * - `paymentCommit.commitLink`: a credential-less GET of it commits the payment at the amount the consumer approved,
 *   skipping the merchant's own commit (and, for authorize and tokenize, answers the token);
 * - `paymentDetails`: the token that captures an authorization or charges a saved card;
 * - `posData`: the merchant's own point-of-sale data.
 * Nulled, not left out: every field keeps the shape of the full object, so a browser reads it as it reads any transaction.
 * The merchant gets them through the status query, callbacks and its own websocket.
 */
export const BrowserTransactionSchema = TransactionSchema.extend({
  posData: z.null(),
  paymentCommit: PaymentCommitSchema.extend({ commitLink: z.null() }),
  paymentDetails: z.null(),
  refunds: z
    .array(RefundSchema.extend({ reason: z.null(), description: z.null(), failureCode: z.null(), processorReference: z.null() }))
    .describe('Oldest first'),
});
export type BrowserTransaction = z.infer<typeof BrowserTransactionSchema>;

/**
 * The browser view of a transaction (BrowserTransactionSchema): the whole object with the merchant's three things
 * nulled, and each refund without the merchant's `reason` (`fraudulent` says what the merchant thinks of the
 * consumer) and note (`description`), or the processor's `failureCode`.
 */
export function toBrowserTransaction(transaction: Transaction): BrowserTransaction {
  return {
    ...transaction,
    posData: null,
    paymentCommit: { ...transaction.paymentCommit, commitLink: null },
    paymentDetails: null,
    // An update stored before refunds existed has none: read as none.
    refunds: (transaction.refunds ?? []).map((refund) => ({ ...refund, reason: null, description: null, failureCode: null, processorReference: null })),
  };
}
