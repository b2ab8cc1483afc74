import type { Tx } from '../../db/client';
import { isConnectionLost, isDatabaseUnavailable } from '../../db/database-outage';
import { fillInFlightAnswer, forgetInFlightKey } from '../../mutations/idempotency-keys.queries';
import { storedAnswerOf, type Outcome, type StoredAnswer } from '../../mutations/stored-answer';
import type { PaymentResult } from '../../processor/processor';
import { processorOf } from '../../processor/processor-registry';
import { callOutsideLock, heldMethodRequest, type ProcessorAnswer, type ProcessorCallDeps, type RequestFinish } from './call-outside-lock';
import type { Pending } from '../../processor/processor';
import { findUnappliedNotification, lockAcquirerReference, markNotificationApplied, markPending } from './notifications.queries';
import { PendingDone, type HeldMethodOperation, type HeldMethodOutcome, type Recording } from './operation';
import { toldOutcome } from './told-outcome';
import { AlreadyRecordedError, findProcessorRequest, isPayment, markDone, type ProcessorRequestRow } from './processor-requests.queries';
import { releaseOperation } from './release';

/**
 * Calls the processor for a request committed in flight (`callOutsideLock`), then records the outcome once, in one
 * transaction: the operation's recording applies it, the answer is kept under its Idempotency-Key (a reversed payment
 * frees the key instead: its request may be made again), and the request moves to done with the answer, guarded, so
 * it is recorded once however many callers got the answer (a loser rolls back): as a rider of the recording's event
 * statement when it passes its PendingDone to recordChange (a capture's approval, a link payment's decision), else
 * last, by markDone. Returns the answer, whoever recorded it; the releases the recording queued are called once it
 * has committed.
 *
 * A payment's outcome is recorded only under the attempt that called (`attempts`, which a worker's claim raises): a
 * worker that took the request over reverses the payment, so the approval that the request may still be holding must
 * not be recorded after that. A call on a method held answers the same to every attempt, so any attempt may record it.
 */
export async function finishProcessorRequest(deps: ProcessorCallDeps, request: ProcessorRequestRow, how: RequestFinish): Promise<StoredAnswer | null> {
  const answer = await callOutsideLock(deps, request, how);
  const releases: ProcessorRequestRow[] = [];
  const committed: (() => void)[] = [];
  let recorded: StoredAnswer | null;
  try {
    recorded = await onFreshConnections(() => {
      releases.length = committed.length = 0; // what an attempt rolled back queued was never committed
      return recordAnswer(deps, request, how, answer, releases, committed);
    });
  } catch (error) {
    // Recorded by another (a worker that took the request over, or the request itself): its answer is the answer. A
    // recording's own guard may be what failed first (the reservation it would settle is gone), so the request is read.
    // A database that cannot say is an outage, whatever failed first: the request stays in flight for the worker.
    const settled = await findProcessorRequest(deps.db, request.id).catch((unread: unknown) => {
      if (isDatabaseUnavailable(unread)) throw unread;
      return null;
    });
    if (settled?.state !== 'done') throw error;
    return storedAnswerOfRequest(settled);
  }
  for (const told of committed) told();
  await finishReleases(deps, releases);
  return recorded;
}

/** Gives back at the processor what committed releases released in the books. One that fails stays in flight for the worker. */
export async function finishReleases(deps: ProcessorCallDeps, releases: ProcessorRequestRow[]): Promise<void> {
  for (const release of releases) {
    try {
      await finishProcessorRequest(deps, release, releaseOperation);
    } catch (error) {
      deps.logger.warn(
        { err: error, code: 'processor_release_deferred', processorRequestId: release.id },
        'release at the processor deferred: the request stays in flight and is retried when its lease ends',
      );
    }
  }
}

/**
 * The recording of `answer` in one transaction of its own: the operation's change, the key's answer, the asker's
 * writes with a payment's decision (told in `committed` once it commits), the move to done.
 */
function recordAnswer(
  deps: ProcessorCallDeps,
  request: ProcessorRequestRow,
  how: RequestFinish,
  answer: ProcessorAnswer,
  releases: ProcessorRequestRow[],
  committed: (() => void)[],
): Promise<StoredAnswer | null> {
  return deps.db.transaction((tx) => recordAnswerIn(tx, deps, request, how, answer, releases, committed));
}

/**
 * `recordAnswer` in a transaction already open: the webhook that tells a call's outcome records it in the transaction
 * that keeps the told outcome. A `Pending` answer records the outcome already told for its reference, if one came
 * first; otherwise the request stays in flight under that reference and the asker gets the operation's pending answer.
 */
export async function recordAnswerIn(
  tx: Tx,
  deps: ProcessorCallDeps,
  request: ProcessorRequestRow,
  how: RequestFinish,
  given: ProcessorAnswer,
  releases: ProcessorRequestRow[],
  committed: (() => void)[],
): Promise<StoredAnswer | null> {
  const now = deps.clock.now();
  const requestId = originalRequestId(request);
  let answer: Exclude<ProcessorAnswer, Pending>;
  if (given.outcome === 'pending') {
    if ('payment' in how) throw new Error(`payment request ${request.id} was answered pending`);
    const told = await outcomeToldFor(tx, request, given, now);
    if (!told) return recordPending(tx, deps, request, how, given, releases, now);
    answer = told;
  } else {
    answer = given;
  }
  // A call on a method held answers the same to every attempt, so any attempt may record it; a payment only the one that called.
  const mark = { id: request.id, outcome: answer.outcome, now, attempt: isPayment(request.operation) ? request.attempts : null };
  const processor = await processorOf(deps, request.merchantId, tx);
  const recording: Recording = { now, env: deps.env, processor, releases, done: new PendingDone(mark, requestId) };
  const key = idempotencyKeyOf(request);
  let outcome: Outcome | null = null;
  if (answer.outcome === 'reversed') {
    if ('payment' in how) await how.undo?.(tx, request);
    if (key) await forgetInFlightKey(tx, request.merchantId, key.key, key.takenAt);
  } else if ('payment' in how) {
    if (!how.record || answer.outcome === 'released') throw new Error(`payment request ${request.id} got a decision outside the request that made it`);
    // The payment's own call answered it (`how.call`): a payment's result, never a refund's.
    outcome = await how.record(tx, answer as PaymentResult, recording);
  } else {
    if (answer.outcome === 'requires_action') throw new Error(`processor request ${request.id} on a held method was answered requires_action`);
    outcome = await how.record(tx, heldMethodRequest(request), answer, recording);
  }
  const kept = recording.done.kept;
  // The event's statement made the move with the answer it kept: the recording's outcome must be that one.
  if (kept && kept.outcome !== outcome) throw new Error(`processor request ${request.id} was moved to done with another outcome than its recording gave`);
  const stored = kept ? kept.answer : outcome && storedAnswerOf(outcome, requestId);
  if (stored && key) await fillInFlightAnswer(tx, request.merchantId, key.key, key.takenAt, stored);
  await decidedAlong(tx, how, answer, stored, committed);
  // Last, and guarded: of everyone recording this request, the first to commit wins; the others roll back.
  if (!kept && !(await markDone(tx, mark, stored))) throw new AlreadyRecordedError(request.id);
  return stored;
}

/**
 * The outcome the acquirer already told for the reference a `Pending` answer names (its webhook came before this
 * answer was recorded), taken for the answer; null when none came yet. Under the reference's lock, as the webhook is.
 */
async function outcomeToldFor(tx: Tx, request: ProcessorRequestRow, pending: Pending, now: Date): Promise<HeldMethodOutcome | null> {
  await lockAcquirerReference(tx, pending.processor, pending.reference);
  const told = await findUnappliedNotification(tx, pending.processor, pending.reference);
  const outcome = told && toldOutcome(request, told);
  if (!told || !outcome) return null;
  await markNotificationApplied(tx, told.id, request.id, now);
  return outcome;
}

/**
 * The request stays in flight, its outcome on its way under the acquirer's reference (a webhook records it); what it
 * reserved stays reserved. The asker gets the operation's pending answer, which is not kept under its Idempotency-Key:
 * that gets the outcome. Refused (AlreadyRecordedError) when the request is no longer in flight.
 */
async function recordPending(
  tx: Tx,
  deps: ProcessorCallDeps,
  request: ProcessorRequestRow,
  how: HeldMethodOperation,
  pending: Pending,
  releases: ProcessorRequestRow[],
  now: Date,
): Promise<StoredAnswer | null> {
  if (!(await markPending(tx, request.id, pending.reference))) throw new AlreadyRecordedError(request.id);
  // Nothing moves to done: the recording's PendingDone is never asked for its rider.
  const recording: Recording = {
    now,
    env: deps.env,
    processor: await processorOf(deps, request.merchantId, tx),
    releases,
    done: new PendingDone({ id: request.id, outcome: 'approved', now, attempt: null }, originalRequestId(request)),
  };
  deps.logger.info(
    { processorRequestId: request.id, operation: request.operation, processor: pending.processor },
    'the processor took the request; its outcome comes by webhook',
  );
  const outcome = (await how.pending?.(tx, heldMethodRequest(request), recording)) ?? null;
  return outcome && storedAnswerOf(outcome, originalRequestId(request));
}

/** The asker's writes made with a payment's decision (not with its reversal), told once the recording has committed. */
async function decidedAlong(tx: Tx, how: RequestFinish, answer: ProcessorAnswer, stored: StoredAnswer | null, committed: (() => void)[]): Promise<void> {
  const along = 'payment' in how && answer.outcome !== 'reversed' ? how.withDecision : undefined;
  if (!stored || !along) return;
  await along.write(tx, stored);
  committed.push(() => along.committed());
}

/** How many more times a recording whose database connection was lost is made, on a fresh connection, before it is given up. */
const RECORDING_RETRIES = 2;

/**
 * Records a processor's answer, again on a fresh connection (the pool opens one) when the connection it ran on was
 * lost: the answer is still in hand, so a dropped connection is no reason to give it up. A recording whose commit was
 * made but not acknowledged is safe to make again: its guarded move to done refuses the second, which rolls back, and
 * the caller finds the request done. Any other error, or a loss that outlasts the retries, is the caller's.
 */
async function onFreshConnections<T>(record: () => Promise<T>): Promise<T> {
  for (let retries = RECORDING_RETRIES; ; retries--) {
    try {
      return await record();
    } catch (error) {
      if (retries === 0 || !isConnectionLost(error)) throw error;
    }
  }
}

/** The Idempotency-Key the request took, as it took it (when it was taken is unknown for a request queued before that was kept). */
function idempotencyKeyOf(request: ProcessorRequestRow): { key: string; takenAt: Date | null } | null {
  if (request.idempotencyKey === null) return null;
  const { keyTakenAt } = request.details as { keyTakenAt?: unknown };
  return { key: request.idempotencyKey, takenAt: typeof keyTakenAt === 'string' ? new Date(keyTakenAt) : null };
}

/** The id of the HTTP request that asked for `request`, for the problem body of its answer. */
export function originalRequestId(request: ProcessorRequestRow): string {
  const { requestId } = request.details as { requestId?: unknown };
  return typeof requestId === 'string' ? requestId : request.id;
}

/** The answer a request done keeps (null for a release). */
export function storedAnswerOfRequest(row: ProcessorRequestRow | null): StoredAnswer | null {
  if (!row || row.responseStatus === null || row.responseBody === null) return null;
  return { status: row.responseStatus, body: row.responseBody };
}
