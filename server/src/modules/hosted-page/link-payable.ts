import { Status, type TransactionStatusCode } from '@svc/protocol';
import type { TransactionRow } from '../transactions';

/** Transactions a consumer pays through the hosted page (widget payments go through the merchant's checkout). */
export const LINK_PAYABLE_METHOD_TYPES = ['sale', 'authorize'] as const;

/**
 * Statuses a payment link takes a payment in: Pending, and Declined, so that a consumer whose card was declined can
 * try again with another card or a wallet (docs/integrating.md#the-hosted-payment-page). A processor failure, a cancel or a time-out is final.
 */
export const LINK_PAYABLE_STATUSES: readonly TransactionStatusCode[] = [Status.Pending, Status.Declined];

/**
 * Whether the link takes a payment now: a sale or an authorization, in a payable status, before its time-out, and
 * with an amount (an authorization created without one has nothing for the consumer to approve: the page shows no
 * form, and a payment is refused the same way).
 */
export function isLinkPayable(row: Pick<TransactionRow, 'status' | 'methodType' | 'timeoutAt' | 'amountCents'>, now: Date): boolean {
  return (
    LINK_PAYABLE_STATUSES.includes(row.status as TransactionStatusCode) &&
    (LINK_PAYABLE_METHOD_TYPES as readonly string[]).includes(row.methodType) &&
    (row.timeoutAt === null || row.timeoutAt > now) &&
    row.amountCents !== null
  );
}
