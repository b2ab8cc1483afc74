import { Status } from '@svc/protocol';
import { and, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { paymentTokens, transactions } from '../../db/schema';
import type { PaymentProcessor } from '../../processor/processor';
import { recordChange } from '../transactions/transaction-events';
import { moveStatus, nextSequence } from '../transactions/transactions.queries';

const BATCH = 200;

/** What a sweep needs besides the clock's time. */
export interface SweepDeps {
  db: Database;
  processor: PaymentProcessor;
  baseUrl: string;
}

/**
 * Applies every time-out and expiry due at `now`: Pending past `timeoutDate` → TimedOut; an active hold
 * past its expiry → Expired, what it still held released, at the processor too; a widget payment not
 * committed within its window → Expired, its approval released at the processor. Rows are claimed with SKIP
 * LOCKED, so several instances sweep side by side; each change appends its event in the same transaction.
 */
export async function sweepDue(deps: SweepDeps, now: Date): Promise<{ timedOut: number; expiredHolds: number; expiredCommits: number }> {
  const timedOut = await sweepInBatches(deps, now, timeOutPending);
  const expiredHolds = await sweepInBatches(deps, now, expireHolds);
  const expiredCommits = await sweepInBatches(deps, now, expireCommitWindows);
  return { timedOut, expiredHolds, expiredCommits };
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
/** What a sweep changed, and what each change leaves to release at the processor. */
type Swept = { id: string; release: { reference: string; amountCents: number } | null }[];
type Sweep = (tx: Tx, now: Date) => Promise<Swept>;

async function sweepInBatches({ db, processor, baseUrl }: SweepDeps, now: Date, sweep: Sweep): Promise<number> {
  let total = 0;
  for (;;) {
    const changed = await db.transaction(async (tx) => {
      const rows = await sweep(tx, now);
      for (const { id, release } of rows) {
        if (release && release.amountCents > 0) await processor.release(release.reference, release.amountCents);
        await recordChange(tx, id, now, baseUrl);
      }
      return rows.length;
    });
    total += changed;
    if (changed < BATCH) return total;
  }
}

/** Due rows, oldest deadline first, locked; rows another transaction holds are left for the next tick. */
function lockDue(tx: Tx, condition: SQL | undefined, deadline: PgColumn) {
  return tx
    .select({
      id: transactions.id,
      left: sql<number>`${transactions.authorizedCents} - ${transactions.capturedCents} - ${transactions.releasedCents}`.mapWith(Number),
      approvedCents: transactions.approvedCents,
      processorReference: transactions.processorReference,
    })
    .from(transactions)
    .where(condition)
    .orderBy(deadline)
    .limit(BATCH)
    .for('update', { skipLocked: true });
}

const timeOutPending: Sweep = async (tx, now) => {
  const due = await lockDue(tx, and(eq(transactions.status, Status.Pending), lte(transactions.timeoutAt, now)), transactions.timeoutAt);
  if (due.length === 0) return [];
  const changed = await moveStatus(tx, due.map((row) => row.id), Status.Pending, Status.TimedOut, now);
  return changed.map(({ id }) => ({ id, release: null }));
};

const expireHolds: Sweep = async (tx, now) => {
  const due = await lockDue(tx, and(eq(transactions.authStatus, 'active'), lte(transactions.holdExpiresAt, now)), transactions.holdExpiresAt);
  if (due.length === 0) return [];
  const changed = await tx
    .update(transactions)
    .set({
      releasedCents: sql`${transactions.authorizedCents} - ${transactions.capturedCents}`,
      status: Status.Expired,
      authStatus: 'expired',
      sequence: nextSequence(),
      updatedAt: now,
    })
    .where(and(inArray(transactions.id, due.map((row) => row.id)), eq(transactions.authStatus, 'active')))
    .returning({ id: transactions.id });
  // The rows are locked, so what each held when it was read is what the update released.
  const tokens = await tokenReferences(tx, changed.map(({ id }) => id));
  const left = new Map(due.map((row) => [row.id, row.left]));
  return changed.map(({ id }) => {
    const reference = tokens.get(id);
    return { id, release: reference ? { reference, amountCents: left.get(id) ?? 0 } : null };
  });
};

const expireCommitWindows: Sweep = async (tx, now) => {
  const due = await lockDue(tx, and(eq(transactions.status, Status.AwaitingCommit), lte(transactions.commitDeadline, now)), transactions.commitDeadline);
  if (due.length === 0) return [];
  const changed = await moveStatus(tx, due.map((row) => row.id), Status.AwaitingCommit, Status.Expired, now);
  const approval = new Map(due.map((row) => [row.id, row]));
  return changed.map(({ id }) => {
    const row = approval.get(id);
    return { id, release: row?.processorReference ? { reference: row.processorReference, amountCents: row.approvedCents ?? 0 } : null };
  });
};

/** The processor references of the authorizations' tokens, by transaction id. */
async function tokenReferences(tx: Tx, transactionIds: string[]): Promise<Map<string, string>> {
  if (transactionIds.length === 0) return new Map();
  const rows = await tx
    .select({ transactionId: paymentTokens.transactionId, reference: paymentTokens.processorReference })
    .from(paymentTokens)
    .where(and(inArray(paymentTokens.transactionId, transactionIds), eq(paymentTokens.type, 'authorization')));
  return new Map(rows.map((row) => [row.transactionId!, row.reference]));
}
