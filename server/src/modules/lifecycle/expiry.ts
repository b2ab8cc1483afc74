import { and, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { transactions } from '../../db/schema';
import { recordChange } from '../transactions/transaction-events';
import { nextSequence } from '../transactions/transactions.queries';

const BATCH = 200;

/**
 * Applies every time-out and expiry due at `now`: Pending past `timeoutDate` → TimedOut (3); an active hold
 * past its expiry → Expired (11), what it still held released; a widget payment not committed within its
 * window → Expired (11), its approval released. Rows are claimed with SKIP LOCKED, so several
 * instances sweep side by side; each change appends its event in the same transaction.
 */
export async function sweepDue(db: Database, now: Date, baseUrl: string): Promise<{ timedOut: number; expiredHolds: number; expiredCommits: number }> {
  const timedOut = await sweepInBatches(db, now, baseUrl, timeOutPending);
  const expiredHolds = await sweepInBatches(db, now, baseUrl, expireHolds);
  const expiredCommits = await sweepInBatches(db, now, baseUrl, expireCommitWindows);
  return { timedOut, expiredHolds, expiredCommits };
}

type Sweep = (tx: Parameters<Parameters<Database['transaction']>[0]>[0], now: Date) => Promise<{ id: string }[]>;

async function sweepInBatches(db: Database, now: Date, baseUrl: string, sweep: Sweep): Promise<number> {
  let total = 0;
  for (;;) {
    const changed = await db.transaction(async (tx) => {
      const rows = await sweep(tx, now);
      for (const { id } of rows) await recordChange(tx, id, now, baseUrl);
      return rows.length;
    });
    total += changed;
    if (changed < BATCH) return total;
  }
}

/** The ids of due rows, oldest deadline first, locked; rows another transaction holds are left for the next tick. */
function dueRows(tx: Parameters<Sweep>[0], condition: SQL | undefined, deadline: PgColumn) {
  return tx.select({ id: transactions.id }).from(transactions).where(condition).orderBy(deadline).limit(BATCH).for('update', { skipLocked: true });
}

const timeOutPending: Sweep = (tx, now) => {
  const due = dueRows(tx, and(eq(transactions.status, 1), lte(transactions.timeoutAt, now)), transactions.timeoutAt);
  return tx
    .update(transactions)
    .set({ status: 3, sequence: nextSequence(), updatedAt: now })
    .where(and(inArray(transactions.id, due), eq(transactions.status, 1)))
    .returning({ id: transactions.id });
};

const expireHolds: Sweep = (tx, now) => {
  const due = dueRows(tx, and(eq(transactions.authStatus, 'active'), lte(transactions.holdExpiresAt, now)), transactions.holdExpiresAt);
  return tx
    .update(transactions)
    .set({
      releasedCents: sql`${transactions.authorizedCents} - ${transactions.capturedCents}`,
      status: 11,
      authStatus: 'expired',
      sequence: nextSequence(),
      updatedAt: now,
    })
    .where(and(inArray(transactions.id, due), eq(transactions.authStatus, 'active')))
    .returning({ id: transactions.id });
};

const expireCommitWindows: Sweep = (tx, now) => {
  const due = dueRows(tx, and(eq(transactions.status, 10), lte(transactions.commitDeadline, now)), transactions.commitDeadline);
  return tx
    .update(transactions)
    .set({ status: 11, sequence: nextSequence(), updatedAt: now })
    .where(and(inArray(transactions.id, due), eq(transactions.status, 10)))
    .returning({ id: transactions.id });
};
