import { randomBytes } from '../../random-bytes';
import type { Clock } from '../../clock';
import type { Database, Tx } from '../../db/client';
import { isConnectionLost, isDatabaseUnavailable } from '../../db/database-outage';
import { ApiError, DatabaseUnavailableError } from '../../errors';
import type { Env } from '../../env';
import type { Logger } from '../../logger';
import { fillInFlightAnswer, forgetInFlightKey } from '../../mutations/idempotency-keys.queries';
import type { AnswerAfterCommit, MutationContext, WithDecision } from '../../mutations/mutation';
import { problemAnswer, storedAnswerOf, type Outcome, type StoredAnswer } from '../../mutations/stored-answer';
import type { PaymentProcessor, ProcessorResult } from '../../processor/processor';
import { PendingDone, type HeldMethodAnswer, type HeldMethodOperation, type HeldMethodRequest, type Recording, type UndoPayment } from './operation';
import {
  AlreadyRecordedError,
  findProcessorRequest,
  insertProcessorRequest,
  insertProcessorRequestWith,
  isPayment,
  markDone,
  type ColumnsFromGuardedWrite,
  type GuardedWrite,
  type ProcessorOutcome,
  type ProcessorRequestKind,
  type ProcessorRequestRow,
} from './processor-requests.queries';

/**
 * How long a request's call may stay unanswered before a worker takes it over (and calls again with the same key, or
 * reverses a payment). Above PROCESSOR_TIMEOUT_MS (at most 50 s), so a request's own call has ended by then.
 */
export const PROCESSOR_LEASE_MS = 60_000;

/** What the processor said to one request: also, that a payment was reversed. */
export type ProcessorAnswer = HeldMethodAnswer | { outcome: 'reversed' };

export interface ProcessorCallDeps {
  db: Database;
  processor: PaymentProcessor;
  clock: Clock;
  logger: Logger;
  env: Env;
}

/** What a new request asks of the processor. */
export interface NewProcessorRequest {
  operation: ProcessorRequestKind;
  transactionId: string | null;
  merchantId: string;
  processorReference: string | null;
  amountCents: number;
  currency: string;
  idempotencyKey?: string | null;
  /** When the request took its Idempotency-Key (MutationContext), kept in the details to fill in or free that key and no other. */
  idempotencyKeyTakenAt?: Date | null;
  details?: Record<string, unknown>;
}

/** A new request as its guarded write completes it: the write names the transaction, and may give the columns it found. */
export type NewRequestWithWrite = Omit<NewProcessorRequest, 'transactionId' | ColumnsFromGuardedWrite> &
  Partial<Pick<NewProcessorRequest, ColumnsFromGuardedWrite>>;

/** What every new request takes from the mutation that asks for it: its Idempotency-Key, and the HTTP request's id in the details. */
export function fromMutation(
  context: Pick<MutationContext, 'idempotencyKey' | 'idempotencyKeyTakenAt' | 'requestId'>,
  details: Record<string, unknown> = {},
): Pick<NewProcessorRequest, 'idempotencyKey' | 'idempotencyKeyTakenAt' | 'details'> {
  return {
    idempotencyKey: context.idempotencyKey,
    idempotencyKeyTakenAt: context.idempotencyKeyTakenAt,
    details: { ...details, requestId: context.requestId },
  };
}

/** A new request, in flight under a lease from `now`; insert it in the transaction of the guarded write it belongs to. */
export function queueProcessorRequest(tx: Tx, request: NewProcessorRequest, now: Date): Promise<ProcessorRequestRow> {
  return insertProcessorRequest(tx, newRow(request, now));
}

/**
 * A new request together with the guarded write it belongs to, in one statement (the write's CTE names the
 * transaction): null, and nothing written, when the write's guard refused.
 */
export function queueProcessorRequestWith(tx: Tx, guarded: GuardedWrite, request: NewRequestWithWrite, now: Date): Promise<ProcessorRequestRow | null> {
  return insertProcessorRequestWith(tx, guarded, newRow({ ...request, transactionId: null }, now));
}

function newRow<T extends Omit<NewProcessorRequest, ColumnsFromGuardedWrite>>({ idempotencyKeyTakenAt, ...request }: T, now: Date) {
  const keyTakenAt = request.idempotencyKey ? idempotencyKeyTakenAt?.toISOString() : undefined;
  return {
    ...request,
    idempotencyKey: request.idempotencyKey ?? null,
    details: { ...request.details, ...(keyTakenAt ? { keyTakenAt } : {}) },
    requestKey: `prq_${randomBytes(16).toString('hex')}`,
    leaseExpiresAt: new Date(now.getTime() + PROCESSOR_LEASE_MS),
    createdAt: now,
  };
}

/** A release of what a hold held, queued in the transaction whose guarded write released it in the books; call it after the commit (`finishReleases`). */
export function queueRelease(
  tx: Tx,
  hold: { transactionId: string; merchantId: string; processorReference: string; currency: string },
  amountCents: number,
  now: Date,
): Promise<ProcessorRequestRow> {
  return queueProcessorRequest(tx, { operation: 'release', ...hold, amountCents }, now);
}

/** The processor did not answer (it threw): the request stays in flight, for the worker once its lease ends. */
export class ProcessorUnanswered extends Error {
  constructor(
    readonly request: ProcessorRequestRow,
    cause: unknown,
  ) {
    super(`the processor did not answer ${request.operation} request ${request.id}`, { cause });
    this.name = 'ProcessorUnanswered';
  }
}

/** The call, outside any database transaction, bounded by PROCESSOR_TIMEOUT_MS: no answer by then is no answer. */
async function callProcessor(deps: ProcessorCallDeps, request: ProcessorRequestRow, call: () => Promise<ProcessorAnswer>): Promise<ProcessorAnswer> {
  let timer: NodeJS.Timeout | undefined;
  const timeoutMs = deps.env.PROCESSOR_TIMEOUT_MS;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within PROCESSOR_TIMEOUT_MS (${timeoutMs} ms)`)), timeoutMs);
  });
  try {
    return await Promise.race([call(), deadline]);
  } catch (error) {
    throw new ProcessorUnanswered(request, error);
  } finally {
    clearTimeout(timer);
  }
}

function heldMethodRequest(request: ProcessorRequestRow): HeldMethodRequest {
  const { transactionId, processorReference } = request;
  if (transactionId === null || processorReference === null) throw new Error(`processor request ${request.id} (${request.operation}) names no held method`);
  return { ...request, transactionId, processorReference };
}

/**
 * Commits the request for `operation` in the change's transaction, and answers after the commit with its recorded
 * outcome: the call and the recording, by `operation`. With a guarded write (its intent: a capture's reservation, a
 * re-authorization's lock), the two go in as one statement, and null means its guard refused: nothing is written.
 * If the processor does not answer, the asker is told so (502, not stored: the Idempotency-Key stays in flight) and
 * the worker records the outcome when the request's lease ends.
 */
export async function askProcessor(
  tx: Tx,
  deps: ProcessorCallDeps,
  context: MutationContext,
  operation: HeldMethodOperation,
  asked: Omit<NewProcessorRequest, 'operation'>,
): Promise<AnswerAfterCommit>;
export async function askProcessor(
  tx: Tx,
  deps: ProcessorCallDeps,
  context: MutationContext,
  operation: HeldMethodOperation,
  asked: Omit<NewRequestWithWrite, 'operation'>,
  guarded: GuardedWrite,
): Promise<AnswerAfterCommit | null>;
export async function askProcessor(
  tx: Tx,
  deps: ProcessorCallDeps,
  context: MutationContext,
  operation: HeldMethodOperation,
  asked: Omit<NewRequestWithWrite, 'operation'> & { transactionId?: string | null },
  guarded?: GuardedWrite,
): Promise<AnswerAfterCommit | null> {
  const asking = await askProcessorFor(tx, deps, context, operation, asked, guarded);
  return asking && asking.answer;
}

/**
 * `askProcessor` for a service that writes more that names the request (a refund's row): the request committed with
 * the guarded write, and the answer after the commit; null, and nothing written, when the write's guard refused.
 */
export async function askProcessorFor(
  tx: Tx,
  deps: ProcessorCallDeps,
  context: MutationContext,
  operation: HeldMethodOperation,
  asked: Omit<NewRequestWithWrite, 'operation'> & { transactionId?: string | null },
  guarded?: GuardedWrite,
): Promise<{ request: ProcessorRequestRow; answer: AnswerAfterCommit } | null> {
  const now = deps.clock.now();
  const request = { ...asked, operation: operation.kind, ...fromMutation(context, asked.details) };
  const queued = guarded ? await queueProcessorRequestWith(tx, guarded, request, now) : await queueProcessorRequest(tx, request as NewProcessorRequest, now);
  return queued && { request: queued, answer: answerAfterCommit(deps, queued, operation) };
}

function answerAfterCommit(deps: ProcessorCallDeps, request: ProcessorRequestRow, operation: HeldMethodOperation): AnswerAfterCommit {
  return {
    answer: async () => {
      try {
        const answer = await finishProcessorRequest(deps, request, operation);
        if (!answer) throw new Error(`processor request ${request.id} was recorded without an answer`);
        return answer;
      } catch (error) {
        // Either way the request is committed and in flight: the worker makes the call again and records its outcome.
        const unanswered = error instanceof ProcessorUnanswered;
        // (An unanswered processor's own error may carry a socket code too: it is not the database's.)
        if (!unanswered && isDatabaseUnavailable(error)) {
          throw new DatabaseUnavailableError(
            "The database became unavailable while the processor's answer was being recorded. The request stays in flight and its outcome is recorded automatically once the database is back (a callback follows); retry with the same Idempotency-Key after the seconds Retry-After gives to read it.",
          );
        }
        deps.logger.warn(
          { err: unanswered ? error.cause : error, code: unanswered ? 'processor_unanswered' : 'processor_outcome_unrecorded', processorRequestId: request.id },
          unanswered
            ? 'the processor did not answer; the request stays in flight for the worker'
            : 'the outcome could not be recorded; the request stays in flight for the worker',
        );
        const why = unanswered ? 'The processor did not answer in time.' : "The processor's answer could not be recorded yet.";
        const detail = `${why} The request stays in flight and its outcome is recorded automatically (a callback follows); retry with the same Idempotency-Key to read it.`;
        return problemAnswer(new ApiError('processor_failure', detail), originalRequestId(request));
      }
    },
  };
}

/** The id of the HTTP request that asked for `request`, for the problem body of its answer. */
export function originalRequestId(request: ProcessorRequestRow): string {
  const { requestId } = request.details as { requestId?: unknown };
  return typeof requestId === 'string' ? requestId : request.id;
}

/**
 * How a payment's request is finished: by the request that made it, its call and the recording of its decision
 * (which only it can make); by anyone, its reversal (no `call`), then `undo`.
 */
export interface PaymentFinish {
  payment: true;
  call?: () => Promise<ProcessorResult>;
  record?: (tx: Tx, result: ProcessorResult, recording: Recording) => Promise<Outcome>;
  undo?: UndoPayment;
  /** The asker's writes made with the decision `record` records (MutationContext's `withDecision`); not with a reversal. */
  withDecision?: WithDecision;
}

/**
 * Calls the processor for a request committed in flight, then records the outcome in one transaction: the
 * operation's recording applies it, the answer is kept under its Idempotency-Key (a reversed payment frees the key
 * instead: its request may be made again), and the request moves to done with the answer, guarded, so it is recorded
 * once however many callers got the answer (a loser rolls back): inside the recording's event statement when it
 * passes its PendingDone to recordChange (a capture's approval, a link payment's decision), else last, by markDone.
 * Returns the answer, whoever recorded it.
 *
 * A payment's outcome is recorded only under the attempt that called (`attempts`, which a worker's claim raises): a
 * worker that took the request over reverses the payment, so the approval that the request may still be holding must
 * not be recorded after that. A call on a method held answers the same to every attempt, so any attempt may record it.
 */
export async function finishProcessorRequest(
  deps: ProcessorCallDeps,
  request: ProcessorRequestRow,
  how: HeldMethodOperation | PaymentFinish,
): Promise<StoredAnswer | null> {
  const answer = await callProcessor(deps, request, callOf(deps.processor, request, how));
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

/** The call `how` makes: a call on a method held, again with the request's key; a payment's own call; else the payment's reversal by its key. */
function callOf(processor: PaymentProcessor, request: ProcessorRequestRow, how: HeldMethodOperation | PaymentFinish): () => Promise<ProcessorAnswer> {
  if (!('payment' in how)) return () => how.call(processor, heldMethodRequest(request));
  return how.call ?? (() => processor.reverse(request.requestKey).then(() => ({ outcome: 'reversed' }) as const));
}

/**
 * The recording of `answer` in one transaction of its own: the operation's change, the key's answer, the asker's
 * writes with a payment's decision (told in `committed` once it commits), the move to done.
 */
function recordAnswer(
  deps: ProcessorCallDeps,
  request: ProcessorRequestRow,
  how: HeldMethodOperation | PaymentFinish,
  answer: ProcessorAnswer,
  releases: ProcessorRequestRow[],
  committed: (() => void)[],
): Promise<StoredAnswer | null> {
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const requestId = originalRequestId(request);
    // A call on a method held answers the same to every attempt, so any attempt may record it; a payment only the one that called.
    const mark = { id: request.id, outcome: outcomeOf(answer), now, attempt: isPayment(request.operation) ? request.attempts : null };
    const recording: Recording = { now, env: deps.env, releases, done: new PendingDone(mark, requestId) };
    const key = idempotencyKeyOf(request);
    let outcome: Outcome | null = null;
    if (answer.outcome === 'reversed') {
      if ('payment' in how) await how.undo?.(tx, request);
      if (key) await forgetInFlightKey(tx, request.merchantId, key.key, key.takenAt);
    } else if ('payment' in how) {
      if (!how.record || answer.outcome === 'released') throw new Error(`payment request ${request.id} got a decision outside the request that made it`);
      // The payment's own call answered it (`how.call`): a payment's result, never a refund's.
      outcome = await how.record(tx, answer as ProcessorResult, recording);
    } else {
      outcome = await how.record(tx, heldMethodRequest(request), answer, recording);
    }
    const kept = recording.done.kept;
    // The event's statement made the move with the answer it kept: the recording's outcome must be that one.
    if (kept && kept.outcome !== outcome) throw new Error(`processor request ${request.id} was moved to done with another outcome than its recording gave`);
    const stored = kept ? kept.answer : outcome && storedAnswerOf(outcome, requestId);
    if (stored && key) await fillInFlightAnswer(tx, request.merchantId, key.key, key.takenAt, stored);
    const along = 'payment' in how && answer.outcome !== 'reversed' ? how.withDecision : undefined;
    if (stored && along) {
      await along.write(tx, stored);
      committed.push(() => along.committed());
    }
    // Last, and guarded: of everyone recording this request, the first to commit wins; the others roll back.
    if (!kept && !(await markDone(tx, mark, stored))) throw new AlreadyRecordedError(request.id);
    return stored;
  });
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

/** A release: the books moved when it was queued (`queueRelease`); at the processor it gives back what the hold held, and done is all there is to record. */
export const releaseOperation: HeldMethodOperation & { kind: 'release' } = {
  kind: 'release',
  call: (processor, request) =>
    processor.release(request.processorReference, request.amountCents, request.requestKey).then(() => ({ outcome: 'released' }) as const),
  record: () => Promise.resolve(null),
};

function outcomeOf(answer: ProcessorAnswer): ProcessorOutcome {
  return answer.outcome;
}

/** The answer a request done keeps (null for a release). */
export function storedAnswerOfRequest(row: ProcessorRequestRow | null): StoredAnswer | null {
  if (!row || row.responseStatus === null || row.responseBody === null) return null;
  return { status: row.responseStatus, body: row.responseBody };
}
