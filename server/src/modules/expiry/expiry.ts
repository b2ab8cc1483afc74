import type { Tx } from '../../db/client';
import { finishReleases, queueRelease, type ProcessorCallDeps, type ProcessorRequestRow } from '../processor-requests';
import { recordChange } from '../transactions';
import { expireAuthentications } from '../authentication-flow';
import {
  type DueRow,
  SWEEP_BATCH,
  authorizationTokenReferences,
  expireCommits,
  expireHolds,
  lockActiveHoldsPastExpiry,
  lockCommitWindowsPastDeadline,
  lockPendingPastTimeout,
  timeOut,
} from './expiry.queries';

/** What a sweep needs besides the clock's time. */
export interface SweepDeps extends ProcessorCallDeps {
  baseUrl: string;
}

/**
 * Applies every time-out and expiry due at `now`: Pending past `timeoutDate` → TimedOut; an active hold
 * past its expiry → Expired, what it still held released, at the processor too; a widget payment not
 * committed within its window (and not being committed) → Expired, its approval released at the processor. Rows
 * are claimed with SKIP LOCKED, so several instances sweep side by side; each change appends its event and queues
 * its release (processor_requests) in the same transaction, and the releases are called once it commits.
 */
export async function sweepDue(
  deps: SweepDeps,
  now: Date,
): Promise<{ timedOut: number; expiredHolds: number; expiredCommits: number; expiredAuthentications: number }> {
  // An authentication left unanswered (3-D Secure, AUTHENTICATION_TIMEOUT_S) first: its decline makes a link payable
  // again, so a link past its own time-out is then timed out in the same sweep.
  const expiredAuthentications = await expireAuthentications(deps, now);
  const timedOut = await sweepInBatches(deps, now, timeOutPending);
  const expiredHolds = await sweepInBatches(deps, now, expireDueHolds);
  const expiredCommits = await sweepInBatches(deps, now, expireCommitWindows);
  return { timedOut, expiredHolds, expiredCommits, expiredAuthentications };
}

/** What a sweep changed, and what each change leaves to release at the processor. */
type Swept = { id: string; merchantId: string; currency: string; release: { reference: string; amountCents: number } | null }[];
type Sweep = (tx: Tx, now: Date) => Promise<Swept>;

async function sweepInBatches(deps: SweepDeps, now: Date, sweep: Sweep): Promise<number> {
  let total = 0;
  for (;;) {
    const releases: ProcessorRequestRow[] = [];
    const changed = await deps.db.transaction(async (tx) => {
      const rows = await sweep(tx, now);
      for (const { id, merchantId, currency, release } of rows) {
        if (release && release.amountCents > 0) {
          const hold = { transactionId: id, merchantId, processorReference: release.reference, currency };
          releases.push(await queueRelease(tx, hold, release.amountCents, now));
        }
        await recordChange(tx, id, { at: now, baseUrl: deps.baseUrl });
      }
      return rows.length;
    });
    await finishReleases(deps, releases);
    total += changed;
    if (changed < SWEEP_BATCH) return total;
  }
}

const timeOutPending: Sweep = async (tx, now) => {
  const due = await lockPendingPastTimeout(tx, now);
  if (due.length === 0) return [];
  const changed = await timeOut(
    tx,
    due.map((row) => row.id),
    now,
  );
  const byId = new Map(due.map((row) => [row.id, row]));
  return changed.map(({ id }) => ({ ...owner(byId, id), release: null }));
};

const expireDueHolds: Sweep = async (tx, now) => {
  const due = await lockActiveHoldsPastExpiry(tx, now);
  if (due.length === 0) return [];
  const changed = await expireHolds(
    tx,
    due.map((row) => row.id),
    now,
  );
  // The rows are locked, so what each held when it was read is what the update released.
  const tokens = await authorizationTokenReferences(
    tx,
    changed.map(({ id }) => id),
  );
  const byId = new Map(due.map((row) => [row.id, row]));
  return changed.map(({ id }) => {
    const reference = tokens.get(id);
    return { ...owner(byId, id), release: reference ? { reference, amountCents: byId.get(id)?.left ?? 0 } : null };
  });
};

const expireCommitWindows: Sweep = async (tx, now) => {
  const due = await lockCommitWindowsPastDeadline(tx, now);
  if (due.length === 0) return [];
  const changed = await expireCommits(
    tx,
    due.map((row) => row.id),
    now,
  );
  const byId = new Map(due.map((row) => [row.id, row]));
  return changed.map(({ id }) => {
    const row = byId.get(id);
    return { ...owner(byId, id), release: row?.processorReference ? { reference: row.processorReference, amountCents: row.approvedCents ?? 0 } : null };
  });
};

function owner(due: Map<string, DueRow>, id: string): { id: string; merchantId: string; currency: string } {
  const row = due.get(id)!;
  return { id, merchantId: row.merchantId, currency: row.currency };
}
