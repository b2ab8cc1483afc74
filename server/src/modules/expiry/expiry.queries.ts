import { Status } from '@svc/protocol';
import { and, eq, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client';
import { paymentTokens, transactions } from '../../db/schema';
import { moveStatus, nextSequence, noConsumerPaymentInFlight } from '../transactions/sql';

/** How many rows one sweep transaction claims. */
export const SWEEP_BATCH = 200;

export interface DueRow {
  id: string;
  merchantId: string;
  currency: string;
  /** What the hold still holds. */
  left: number;
  approvedCents: number | null;
  processorReference: string | null;
}

/** Due rows, oldest deadline first, locked; rows another transaction holds are left for the next tick. */
function lockDue(db: Queryable, condition: SQL | undefined, deadline: PgColumn): Promise<DueRow[]> {
  return db
    .select({
      id: transactions.id,
      merchantId: transactions.merchantId,
      currency: transactions.currency,
      // What is neither captured nor released (no capture is in flight on a hold the sweep ends).
      left: sql<number>`${transactions.authorizedCents} - ${transactions.capturedCents} - ${transactions.releasedCents} - ${transactions.capturePendingCents}`.mapWith(
        Number,
      ),
      approvedCents: transactions.approvedCents,
      processorReference: transactions.processorReference,
    })
    .from(transactions)
    .where(condition)
    .orderBy(deadline)
    .limit(SWEEP_BATCH)
    .for('update', { skipLocked: true });
}

/** Pending past its time-out, unless a consumer's payment of it is at the processor (it was asked in time). */
export function lockPendingPastTimeout(db: Queryable, now: Date): Promise<DueRow[]> {
  return lockDue(db, and(eq(transactions.status, Status.Pending), lte(transactions.timeoutAt, now), noConsumerPaymentInFlight()), transactions.timeoutAt);
}

const noCaptureInFlight = eq(transactions.capturePendingCents, 0);

/**
 * Active holds past their expiry, unless a capture of theirs is at the processor: the expiry waits for its outcome
 * (a capture that uses the hold up leaves nothing to expire), so a captured hold never reads Expired.
 */
export function lockActiveHoldsPastExpiry(db: Queryable, now: Date): Promise<DueRow[]> {
  return lockDue(db, and(eq(transactions.authStatus, 'active'), lte(transactions.holdExpiresAt, now), noCaptureInFlight), transactions.holdExpiresAt);
}

export function lockCommitWindowsPastDeadline(db: Queryable, now: Date): Promise<DueRow[]> {
  return lockDue(
    db,
    and(eq(transactions.status, Status.AwaitingCommit), lte(transactions.commitDeadline, now), isNull(transactions.commitInFlightSince)),
    transactions.commitDeadline,
  );
}

/** Pending → TimedOut for these rows, guarded on still being pending. */
export function timeOut(db: Queryable, transactionIds: string[], now: Date) {
  return moveStatus(db, transactionIds, Status.Pending, Status.TimedOut, now);
}

/** AwaitingCommit → Expired for these rows, guarded on still awaiting. */
export function expireCommits(db: Queryable, transactionIds: string[], now: Date) {
  return moveStatus(db, transactionIds, Status.AwaitingCommit, Status.Expired, now);
}

/** Active holds → Expired, what each still held released; guarded on the hold still being active with no capture in flight. */
export async function expireHolds(db: Queryable, transactionIds: string[], now: Date): Promise<{ id: string }[]> {
  if (transactionIds.length === 0) return [];
  return db
    .update(transactions)
    .set({
      releasedCents: sql`${transactions.authorizedCents} - ${transactions.capturedCents} - ${transactions.capturePendingCents}`,
      status: Status.Expired,
      authStatus: 'expired',
      sequence: nextSequence(),
      updatedAt: now,
    })
    .where(and(inArray(transactions.id, transactionIds), eq(transactions.authStatus, 'active'), noCaptureInFlight))
    .returning({ id: transactions.id });
}

/** The processor references of the authorizations' tokens, by transaction id. */
export async function authorizationTokenReferences(db: Queryable, transactionIds: string[]): Promise<Map<string, string>> {
  if (transactionIds.length === 0) return new Map();
  const rows = await db
    .select({ transactionId: paymentTokens.transactionId, reference: paymentTokens.processorReference })
    .from(paymentTokens)
    .where(and(inArray(paymentTokens.transactionId, transactionIds), eq(paymentTokens.type, 'authorization')));
  return new Map(rows.map((row) => [row.transactionId!, row.reference]));
}
