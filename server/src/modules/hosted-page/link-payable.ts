import { Status, type TransactionStatusCode } from '@svc/protocol';
import type { TransactionRow } from '../transactions';

/** Transactions a consumer pays through the hosted page (widget payments go through the merchant's checkout). */
export const LINK_PAYABLE_METHOD_TYPES = ['sale', 'authorize'] as const;

/**
 * Statuses a payment link takes a payment in: Pending, and Declined, so that a consumer whose card was declined can
 * try again with another card or a wallet (docs/integrating.md#the-hosted-payment-page). A processor failure, a cancel or a time-out is final.
 */
export const LINK_PAYABLE_STATUSES: readonly TransactionStatusCode[] = [Status.Pending, Status.Declined];

export function isLinkPayable(row: Pick<TransactionRow, 'status' | 'methodType' | 'timeoutAt'>, now: Date): boolean {
  return (
    LINK_PAYABLE_STATUSES.includes(row.status as TransactionStatusCode) &&
    (LINK_PAYABLE_METHOD_TYPES as readonly string[]).includes(row.methodType) &&
    (row.timeoutAt === null || row.timeoutAt > now)
  );
}
