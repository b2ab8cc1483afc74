import { REFUNDABLE_STATUSES } from '@svc/protocol';
import type { TransactionRow } from './transactions.queries';

type Counters = Pick<
  TransactionRow,
  'status' | 'methodType' | 'amountCents' | 'authStatus' | 'capturedCents' | 'capturePendingCents' | 'refundedCents' | 'refundsInFlightCents'
>;

/** What the transaction settled (the schema's `settledCents`): an authorization's captures, else its amount once paid. */
export function settledCentsOf(row: Counters): number {
  return row.methodType === 'authorize' ? row.capturedCents : (row.amountCents ?? 0);
}

/**
 * Whether a refund applies to the transaction at all (docs/integrating.md#refunds): settled money that nothing holds
 * any more. A sale or committed payment once Approved; an authorization once its hold ended with captures and none in
 * flight; either after a partial refund. A tokenization settles nothing. The refunds' guarded write says the same in SQL.
 */
export function isRefundable(row: Counters): boolean {
  if (!(REFUNDABLE_STATUSES as readonly number[]).includes(row.status)) return false;
  if (row.methodType === 'tokenize') return false;
  if (row.methodType !== 'authorize') return true;
  return row.authStatus !== 'active' && row.capturedCents > 0 && row.capturePendingCents === 0;
}

/** What a refund may still take: settled, less refunded and refunds in flight; 0 where no refund applies. */
export function refundableCentsOf(row: Counters): number {
  return isRefundable(row) ? settledCentsOf(row) - row.refundedCents - row.refundsInFlightCents : 0;
}
