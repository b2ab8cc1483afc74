import type { Database, Tx } from '../../db/client';
import type { PaymentProcessor } from '../../processor/processor';
import { recordChange } from '../transactions';
import * as q from './expiry.queries';

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
    if (changed < q.SWEEP_BATCH) return total;
  }
}

const timeOutPending: Sweep = async (tx, now) => {
  const due = await q.lockPendingPastTimeout(tx, now);
  if (due.length === 0) return [];
  const changed = await q.timeOut(tx, due.map((row) => row.id), now);
  return changed.map(({ id }) => ({ id, release: null }));
};

const expireHolds: Sweep = async (tx, now) => {
  const due = await q.lockActiveHoldsPastExpiry(tx, now);
  if (due.length === 0) return [];
  const changed = await q.expireHolds(tx, due.map((row) => row.id), now);
  // The rows are locked, so what each held when it was read is what the update released.
  const tokens = await q.authorizationTokenReferences(tx, changed.map(({ id }) => id));
  const left = new Map(due.map((row) => [row.id, row.left]));
  return changed.map(({ id }) => {
    const reference = tokens.get(id);
    return { id, release: reference ? { reference, amountCents: left.get(id) ?? 0 } : null };
  });
};

const expireCommitWindows: Sweep = async (tx, now) => {
  const due = await q.lockCommitWindowsPastDeadline(tx, now);
  if (due.length === 0) return [];
  const changed = await q.expireCommits(tx, due.map((row) => row.id), now);
  const approval = new Map(due.map((row) => [row.id, row]));
  return changed.map(({ id }) => {
    const row = approval.get(id);
    return { id, release: row?.processorReference ? { reference: row.processorReference, amountCents: row.approvedCents ?? 0 } : null };
  });
};
