import { Status } from '@svc/protocol';
import { and, eq, gt } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { transactions } from '../../db/schema';
import { moveStatus, nextSequence, type TransactionRow } from '../transactions';

export type CommitEffect =
  | { kind: 'captured'; amountCents: number }
  | { kind: 'authorized'; amountCents: number; holdExpiresAt: Date }
  | { kind: 'tokenized' };

/**
 * AwaitingCommit → committed, guarded: only while still awaiting and inside the window. manual_capture and
 * tokenize end Approved; authorize ends Authorized with a hold of the committed amount.
 */
export async function applyCommit(
  db: Queryable,
  transactionId: string,
  effect: CommitEffect,
  extras: { callbackUrl?: string; products?: unknown; productSumMismatch?: boolean; posData?: Record<string, unknown> },
  now: Date,
): Promise<TransactionRow | null> {
  const byEffect =
    effect.kind === 'captured'
      ? { status: Status.Approved, amountCents: effect.amountCents }
      : effect.kind === 'authorized'
        ? { status: Status.Authorized, amountCents: effect.amountCents, authStatus: 'active' as const, authorizedCents: effect.amountCents, holdExpiresAt: effect.holdExpiresAt }
        : { status: Status.Approved };
  const [row] = await db
    .update(transactions)
    .set({
      ...byEffect,
      ...(extras.callbackUrl !== undefined ? { callbackUrl: extras.callbackUrl } : {}),
      ...(extras.products !== undefined ? { products: extras.products, productSumMismatch: extras.productSumMismatch ?? false } : {}),
      ...(extras.posData !== undefined ? { posData: extras.posData } : {}),
      committedAt: now,
      sequence: nextSequence(),
      updatedAt: now,
    })
    .where(and(eq(transactions.id, transactionId), eq(transactions.status, Status.AwaitingCommit), gt(transactions.commitDeadline, now)))
    .returning();
  return row ?? null;
}

/** AwaitingCommit past its window → Expired, guarded the same way. */
export async function expireCommitWindow(db: Queryable, transactionId: string, now: Date): Promise<TransactionRow | null> {
  const [row] = await moveStatus(db, [transactionId], Status.AwaitingCommit, Status.Expired, now);
  return row ?? null;
}

export async function findByCommitId(db: Queryable, commitId: string): Promise<TransactionRow | null> {
  const [row] = await db.select().from(transactions).where(eq(transactions.commitId, commitId)).limit(1);
  return row ?? null;
}
