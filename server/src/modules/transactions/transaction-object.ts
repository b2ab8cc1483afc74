import {
  centsToMajor,
  fillPath,
  getPaymentPagePath,
  statusName,
  type Authorization,
  type Confirmation,
  type Product,
  type Refund,
  type Transaction,
  type TransactionStatusCode,
  Status,
} from '@svc/protocol';
import { toPayment } from '../payments';
import { refundableCentsOf } from './refundable';
import type { RefundRow, TransactionView } from './transactions.queries';

/** A product as stored: amounts in cents. */
export interface StoredProduct {
  name: string;
  quantity: number;
  amountCents: number;
  vatCents: number | null;
  discountCents: number | null;
  posIdentifier: string | null;
}

const COMMIT_NOT_REQUIRED = {
  messsage: 'Commit not required',
  isPaymentCommitted: true,
  secondsToCommit: 0,
  commitLink: null,
} as const;

/** The transaction object (docs/integrating.md#the-transaction-object), built from its view: every spec field present, null where unknown. */
export function toTransactionObject({ row, merchant, token, payments, refunds }: TransactionView, baseUrl: string): Transaction {
  const links = {
    iOSLink: `svcpay://pay/${row.linkId}`,
    androidLink: `svcpay://pay/${row.linkId}`,
    qrURL: paymentPageUrl(baseUrl, row.linkId),
  };
  const products = (row.products as StoredProduct[]).map(toProduct);
  const authorization = authorizationOf(row);
  const confirmation = row.confirmation ? inSpecOrder(row.confirmation as Confirmation) : null;
  const status = row.status as TransactionStatusCode;
  return {
    TransactionNumber: row.transactionNumber,
    date: row.createdAt.toISOString(),
    amount: row.amountCents === null ? null : centsToMajor(row.amountCents),
    amountCents: row.amountCents,
    currency: row.currency as Transaction['currency'],
    status,
    statusName: statusName(status),
    methodType: row.methodType,
    pos: row.pos,
    posReceiptsEndpoint: `${baseUrl}/transactions/${row.transactionNumber}/receipt`,
    posData: (row.posData as Record<string, unknown> | null) ?? null,
    businessName: merchant.name,
    businessId: merchant.businessId,
    timeoutDate: row.timeoutAt?.toISOString() ?? null,
    paymentMethodData: { PaymentType: row.paymentType, directAppLinks: links },
    SMS: row.smsState as Transaction['SMS'],
    paymentCommit: paymentCommitOf(row, baseUrl),
    products,
    productSumMismatch: row.productSumMismatch,
    confirmations: confirmation ? [confirmation] : [],
    confirmation,
    transactionPage: links,
    balance: authorization ? centsToMajor(authorization.availableCents) : 0,
    paymentDetails: token ? { type: token.type, token: token.token } : null,
    authorization,
    payments: payments.map(toPayment),
    refundedCents: row.refundedCents,
    refundableCents: refundableCentsOf(row),
    refunds: refunds.map(toRefund),
    lastDeclineCode: row.lastDeclineCode,
    lastDeclineProcessorCode: row.lastDeclineProcessorCode,
    sequence: row.sequence,
    updatedAt: row.updatedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/** A refund as the wire shows it (docs/integrating.md#refunds). */
export function toRefund(row: RefundRow): Refund {
  return {
    refundId: row.refundId,
    amountCents: row.amountCents,
    currency: row.currency as Refund['currency'],
    status: row.status,
    reason: row.reason,
    description: row.description,
    failureCode: row.failureCode,
    processorReference: row.processorReference,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The hosted payment page of a link (the `qrURL`). */
export function paymentPageUrl(baseUrl: string, linkId: string): string {
  return `${baseUrl}${fillPath(getPaymentPagePath, { linkId })}`;
}

/** The spec's paymentCommit: widget payments wait for the merchant's commit; everything else needs none. */
function paymentCommitOf(row: TransactionView['row'], baseUrl: string): Transaction['paymentCommit'] {
  if (row.commitId === null || row.commitDeadline === null) return COMMIT_NOT_REQUIRED;
  const committed = row.committedAt !== null;
  const messsage = committed
    ? 'Payment committed'
    : row.status === Status.AwaitingCommit
      ? 'Waiting for the merchant to commit the payment'
      : row.status === Status.Expired
        ? 'Commit window expired'
        : 'Not committed';
  return {
    messsage,
    isPaymentCommitted: committed,
    secondsToCommit: Math.round((row.commitDeadline.getTime() - row.createdAt.getTime()) / 1000),
    commitLink: `${baseUrl}/transactions/commitPayment/${row.commitId}`,
  };
}

/** jsonb does not keep key order; the wire shows the spec's. */
function inSpecOrder(c: Confirmation): Confirmation {
  return {
    paymentType: c.paymentType ?? null,
    confirmationNumber: c.confirmationNumber ?? null,
    fullConfirmationCode: c.fullConfirmationCode ?? null,
    dateApproval: c.dateApproval ?? null,
    installments: c.installments ?? null,
    paymentMethodName: c.paymentMethodName ?? null,
    approvedBy: c.approvedBy ?? null,
    providerId: c.providerId ?? null,
    requestID: c.requestID ?? null,
    authNumber: c.authNumber ?? null,
    referenceNumber: c.referenceNumber ?? null,
    acquirer: c.acquirer ?? null,
    voucher: c.voucher ?? null,
    lastFourDigits: c.lastFourDigits ?? null,
    serviceReferenceId: c.serviceReferenceId ?? null,
    threeDSecure: c.threeDSecure ?? null,
  };
}

/** A stored product (cents) as the wire shows it (major units). */
export function toProduct(p: StoredProduct): Product {
  return {
    name: p.name,
    quantity: p.quantity,
    amount: centsToMajor(p.amountCents),
    vat: p.vatCents === null ? null : centsToMajor(p.vatCents),
    discount: p.discountCents === null ? null : centsToMajor(p.discountCents),
    posIdentifier: p.posIdentifier,
  };
}

function authorizationOf(row: TransactionView['row']): Authorization | null {
  if (row.methodType !== 'authorize' || row.authStatus === null) return null;
  return {
    status: row.authStatus,
    authorizedCents: row.authorizedCents,
    capturedCents: row.capturedCents,
    releasedCents: row.releasedCents,
    // Captures at the processor are spoken for: never offered twice.
    availableCents: row.authorizedCents - row.capturedCents - row.releasedCents - row.capturePendingCents,
    expiresAt: row.holdExpiresAt?.toISOString() ?? null,
    processor: row.processor,
    supportsCloseAuth: row.supportsCloseAuth,
  };
}
