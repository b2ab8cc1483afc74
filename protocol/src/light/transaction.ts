/** Mirrors of protocol `TransactionSchema` and `BrowserTransactionSchema` (docs/integrating.md#the-transaction-object, `../transaction.ts`); checked against them in light.test.ts. */
import { CURRENCIES, METHOD_TYPES, REFUND_REASONS, REFUND_STATES, SMS_STATES, THREE_DS_FLOWS } from '../constants';
import { TRANSACTION_STATUS_CODES, TRANSACTION_STATUS_NAMES } from './constants';
import { array, boolean, isoDatetime, literal, nullable, number, object, oneOf, record, string, union } from './schema';

const str = string();
const int = number({ int: true });
const num = number();

const directAppLinks = object({ iOSLink: str, androidLink: str, qrURL: str });

/** Mirror of protocol `ProductSchema`. */
export const ProductWire = object({
  name: str,
  quantity: int,
  amount: num,
  vat: nullable(num),
  discount: nullable(num),
  posIdentifier: nullable(str),
});

/** Mirror of protocol `ThreeDSecureSchema`. */
export const ThreeDSecureWire = object({
  authenticated: boolean,
  flow: oneOf(THREE_DS_FLOWS),
  version: str,
  eci: nullable(str),
  liabilityShift: boolean,
});

const confirmation = object({
  paymentType: nullable(str),
  confirmationNumber: nullable(str),
  fullConfirmationCode: nullable(str),
  dateApproval: nullable(isoDatetime),
  installments: nullable(num),
  paymentMethodName: nullable(str),
  approvedBy: nullable(str),
  providerId: nullable(str),
  requestID: nullable(str),
  authNumber: nullable(str),
  referenceNumber: nullable(str),
  acquirer: nullable(str),
  voucher: nullable(str),
  lastFourDigits: nullable(str),
  serviceReferenceId: nullable(str),
  threeDSecure: nullable(ThreeDSecureWire),
});

const authorization = object({
  status: oneOf(['active', 'captured', 'voided', 'closed', 'expired']),
  authorizedCents: int,
  capturedCents: int,
  releasedCents: int,
  availableCents: int,
  expiresAt: nullable(isoDatetime),
  processor: nullable(str),
  supportsCloseAuth: boolean,
});

const payment = object({
  paymentId: str,
  amountCents: int,
  status: oneOf(['succeeded', 'failed']),
  date: isoDatetime,
  confirmationNumber: nullable(str),
});

const refund = {
  refundId: str,
  amountCents: int,
  currency: oneOf(CURRENCIES),
  status: oneOf(REFUND_STATES),
  reason: nullable(oneOf(REFUND_REASONS)),
  description: nullable(str),
  failureCode: nullable(str),
  processorReference: nullable(str),
  createdAt: isoDatetime,
  updatedAt: isoDatetime,
};

const statusCode = union(
  '',
  TRANSACTION_STATUS_CODES.map((code) => literal(code)),
);

const paymentCommit = { messsage: str, isPaymentCommitted: boolean, secondsToCommit: int, commitLink: nullable(str) };

const transaction = {
  TransactionNumber: str,
  date: isoDatetime,
  amount: nullable(num),
  amountCents: nullable(int),
  currency: oneOf(CURRENCIES),
  status: statusCode,
  statusName: oneOf(TRANSACTION_STATUS_NAMES),
  methodType: oneOf(METHOD_TYPES),
  pos: nullable(str),
  posReceiptsEndpoint: str,
  posData: nullable(record),
  businessName: str,
  businessId: int,
  timeoutDate: nullable(isoDatetime),
  paymentMethodData: object({ PaymentType: nullable(str), directAppLinks }),
  SMS: oneOf(SMS_STATES),
  paymentCommit: object(paymentCommit),
  products: array(ProductWire),
  productSumMismatch: boolean,
  confirmations: array(confirmation),
  confirmation: nullable(confirmation),
  transactionPage: directAppLinks,
  balance: num,
  paymentDetails: nullable(object({ type: oneOf(['authorization', 'token']), token: str })),
  authorization: nullable(authorization),
  payments: array(payment),
  refundedCents: int,
  refundableCents: int,
  refunds: array(object(refund)),
  lastDeclineCode: nullable(str),
  lastDeclineProcessorCode: nullable(str),
  sequence: number({ int: true, min: 1 }),
  updatedAt: isoDatetime,
  createdAt: isoDatetime,
};

export const TransactionWire = object(transaction);

/** The transaction as a browser receives it: the commitLink, the token, the POS data and each refund's reason, note and failure code are always null. */
export const BrowserTransactionWire = object({
  ...transaction,
  posData: literal(null),
  paymentCommit: object({ ...paymentCommit, commitLink: literal(null) }),
  paymentDetails: literal(null),
  refunds: array(object({ ...refund, reason: literal(null), description: literal(null), failureCode: literal(null), processorReference: literal(null) })),
});
