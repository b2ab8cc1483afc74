import { Status } from '@svc/protocol';
import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { transactions } from '../../db/schema';
import { nextSequence, type TransactionRow } from '../transactions/sql';

export type CommitEffect = { kind: 'captured'; amountCents: number } | { kind: 'authorized'; amountCents: number; holdExpiresAt: Date } | { kind: 'tokenized' };

/**
 * AwaitingCommit → committed, guarded: only while still awaiting and, for `window`, inside the window with no commit
 * at the processor; for `in_flight`, the commit whose capture the processor just approved (it was asked inside the
 * window). manual_capture and tokenize end Approved; authorize ends Authorized with a hold of the committed amount.
 */
export async function applyCommit(
  db: Queryable,
  transactionId: string,
  effect: CommitEffect,
  extras: { callbackUrl?: string; products?: unknown; productSumMismatch?: boolean; posData?: Record<string, unknown> },
  now: Date,
  guard: 'window' | 'in_flight' = 'window',
): Promise<TransactionRow | null> {
  const byEffect =
    effect.kind === 'captured'
      ? { status: Status.Approved, amountCents: effect.amountCents }
      : effect.kind === 'authorized'
        ? {
            status: Status.Authorized,
            amountCents: effect.amountCents,
            authStatus: 'active' as const,
            authorizedCents: effect.amountCents,
            holdExpiresAt: effect.holdExpiresAt,
          }
        : { status: Status.Approved };
  const [row] = await db
    .update(transactions)
    .set({
      ...byEffect,
      ...(extras.callbackUrl !== undefined ? { callbackUrl: extras.callbackUrl } : {}),
      ...(extras.products !== undefined ? { products: extras.products, productSumMismatch: extras.productSumMismatch ?? false } : {}),
      ...(extras.posData !== undefined ? { posData: extras.posData } : {}),
      committedAt: now,
      commitInFlightSince: null,
      sequence: nextSequence(),
      updatedAt: now,
    })
    .where(
      and(
        eq(transactions.id, transactionId),
        eq(transactions.status, Status.AwaitingCommit),
        guard === 'window' ? and(gt(transactions.commitDeadline, now), isNull(transactions.commitInFlightSince)) : isNotNull(transactions.commitInFlightSince),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * A manual_capture commit asks the processor for its capture: AwaitingCommit inside the window, with no other commit
 * at the processor → in flight. Nothing the merchant sees moves until the outcome; the window cannot expire it meanwhile.
 */
export async function startCommitCapture(db: Queryable, transactionId: string, now: Date): Promise<TransactionRow | null> {
  const [row] = await db
    .update(transactions)
    .set({ commitInFlightSince: now })
    .where(
      and(
        eq(transactions.id, transactionId),
        eq(transactions.status, Status.AwaitingCommit),
        gt(transactions.commitDeadline, now),
        isNull(transactions.commitInFlightSince),
      ),
    )
    .returning();
  return row ?? null;
}

/** The processor refused a commit's capture: the payment awaits its commit again (or its window's end). */
export async function endCommitCapture(db: Queryable, transactionId: string): Promise<void> {
  await db.update(transactions).set({ commitInFlightSince: null }).where(eq(transactions.id, transactionId));
}

/** AwaitingCommit past its window → Expired, guarded the same way (and never while a commit is at the processor). */
export async function expireCommitWindow(db: Queryable, transactionId: string, now: Date): Promise<TransactionRow | null> {
  const [row] = await db
    .update(transactions)
    .set({ status: Status.Expired, sequence: nextSequence(), updatedAt: now })
    .where(and(eq(transactions.id, transactionId), eq(transactions.status, Status.AwaitingCommit), isNull(transactions.commitInFlightSince)))
    .returning();
  return row ?? null;
}

export async function findByCommitId(db: Queryable, commitId: string): Promise<TransactionRow | null> {
  const [row] = await db.select().from(transactions).where(eq(transactions.commitId, commitId)).limit(1);
  return row ?? null;
}
