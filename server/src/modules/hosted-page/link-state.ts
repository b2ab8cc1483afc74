import { centsToMajor, statusName, type PaymentLinkState, type TransactionStatusCode } from '@svc/protocol';
import { isLinkPayable } from './link-payable';
import { toProduct, type StoredProduct, type TransactionRow } from '../transactions';

/** What the consumer's page may know of a transaction: nothing secret, no token, no merchant data beyond its name. */
export function toLinkState(link: { row: TransactionRow; businessName: string; lastFourDigits: string | null }, now: Date): PaymentLinkState {
  const { row } = link;
  const status = row.status as TransactionStatusCode;
  const payable = isLinkPayable(row, now);
  return {
    TransactionNumber: row.transactionNumber,
    amount: row.amountCents === null ? null : centsToMajor(row.amountCents),
    amountCents: row.amountCents,
    currency: row.currency as PaymentLinkState['currency'],
    businessName: link.businessName,
    products: (row.products as StoredProduct[]).map(toProduct),
    methodType: row.methodType,
    status,
    statusName: statusName(status),
    timeoutDate: row.timeoutAt?.toISOString() ?? null,
    payable,
    lastFourDigits: link.lastFourDigits ?? (row.confirmation as { lastFourDigits?: string | null } | null)?.lastFourDigits ?? null,
    confirmationNumber: (row.confirmation as { confirmationNumber?: string | null } | null)?.confirmationNumber ?? null,
    refundedCents: row.refundedCents,
    maxInstallments: row.maxInstallments,
  };
}
