import { randomBytes } from '../../random-bytes';
import { PROBLEM_CONTENT_TYPE, type Currency } from '@svc/protocol';
import type { Clock } from '../../clock';
import type { Database, Tx } from '../../db/client';
import { isConnectionLost, isDatabaseUnavailable } from '../../db/database-outage';
import { ApiError, DatabaseUnavailableError } from '../../errors';
import { answerOf, type MutationContext, type ProcessorHandoff } from '../../http/idempotency';
import type { Env } from '../../env';
import { fillInFlightAnswer, forgetInFlightKey } from '../../http/idempotency.queries';
import type { Logger } from '../../logger';
import type { PaymentProcessor, ProcessorResult, RefundResult } from '../../processor/processor';
import * as q from './processor-requests.queries';
import { isPayment, RecordedElsewhere, type ProcessorOutcome, type ProcessorRequestRow } from './processor-requests.queries';

/**
 * How long a request's call may stay unanswered before a worker takes it over (and calls again with the same key, or
 * reverses a payment). Above PROCESSOR_TIMEOUT_MS (at most 50 s), so a request's own call has ended by then.
 */
export const PROCESSOR_LEASE_MS = 60_000;

/** What the processor said to a call on a method already held: a capture's or a refund's result, or that a release was made. */
export type RedoableAnswer = ProcessorResult | RefundResult | { outcome: 'released' };
/** What the processor said to one request: also, that a payment was reversed. */
export type ProcessorAnswer = RedoableAnswer | { outcome: 'reversed' };

/** The HTTP answer an outcome gives (null for a release, whose answer was given when it was asked). */
export interface RecordedAnswer {
  status: number;
  body: string;
  contentType: string;
}

export interface ProcessorCallDeps {
  db: Database;
  processor: PaymentProcessor;
  clock: Clock;
  logger: Logger;
  env: Pick<Env, 'PROCESSOR_TIMEOUT_MS' | 'PROCESSOR_REQUEST_GIVE_UP_S'>;
}

/** A call on a method already held: it names its transaction and the method (processor_requests_redoable_has_method). */
export type HeldMethodRequest = ProcessorRequestRow & { transactionId: string; processorReference: string };

/**
 * Records a request's outcome in tx 2, beside marking it done; `releases` are requests it queued, called after the
 * commit; `done` is the move to done, which the recording's event may make in its statement (recordChange's `done`).
 */
export type RecordOutcome = (
  tx: Tx,
  request: HeldMethodRequest,
  answer: RedoableAnswer,
  context: { now: Date; releases: ProcessorRequestRow[]; done: PendingDone },
) => Promise<RecordedAnswer | null>;

/**
 * A request's move to done, to be made once in its recording's transaction: by the recording's event statement, one
 * statement fewer (recordChange's `done`, which calls `wrote` with the answer it kept), or else by
 * finishProcessorRequest after the recorder, last. Either way it is guarded (markDone): a recorder that lost to
 * another has its transaction rolled back (RecordedElsewhere).
 */
export class PendingDone {
  #kept: { answer: q.KeptAnswer } | null = null;

  constructor(readonly mark: q.DoneMark) {}

  /** Written, with this answer, by the statement that made it. */
  wrote(answer: q.KeptAnswer): void {
    if (this.#kept) throw new Error(`processor request ${this.mark.id} was moved to done twice`);
    this.#kept = { answer };
  }

  /** What was kept, or null when nothing has made the move yet. */
  get kept(): { answer: q.KeptAnswer } | null {
    return this.#kept;
  }
}

/** The outcome recorder for each operation, so a worker can finish any request. */
export type OutcomeRecorders = Record<q.RedoableOperation, RecordOutcome> & { reversedPayment: UndoPayment };

/** Undoes what a payment's request committed before its call (a link's in-flight mark), once the payment is reversed. */
export type UndoPayment = (tx: Tx, request: ProcessorRequestRow) => Promise<void>;

/** How a payment's request is finished: its own call and the recording of its decision (by its request only), or its undoing. */
export interface PaymentFinish {
  call?: ProcessorCall;
  decide?: (tx: Tx, result: ProcessorResult, done: PendingDone) => Promise<RecordedAnswer>;
  undo?: UndoPayment;
}

/** What a new request asks of the processor. */
export interface NewProcessorRequest {
  operation: q.ProcessorOperation;
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

/** What every new request takes from the HTTP request that asks for it: its Idempotency-Key, and its id in the details. */
export function askedBy(
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
  return q.insertProcessorRequest(tx, newRow(request, now));
}

/**
 * A new request together with the guarded write it belongs to, in one statement (the write's CTE names the
 * transaction): null, and nothing written, when the write's guard refused.
 */
export function queueProcessorRequestWith(
  tx: Tx,
  guarded: q.GuardedWrite,
  request: Omit<NewProcessorRequest, 'transactionId' | keyof NonNullable<q.GuardedWriteSql['columns']>> &
    Partial<Pick<NewProcessorRequest, keyof NonNullable<q.GuardedWriteSql['columns']>>>,
  now: Date,
): Promise<ProcessorRequestRow | null> {
  return q.insertProcessorRequestWith(tx, guarded, newRow({ ...request, transactionId: null }, now));
}

function newRow<T extends Omit<NewProcessorRequest, q.FromTheWrite>>({ idempotencyKeyTakenAt, ...request }: T, now: Date) {
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

/** How a request is put to the processor: by default `callFor`; the request that makes a payment passes its own call. */
export type ProcessorCall = () => Promise<ProcessorAnswer>;

/** The call, outside any database transaction, bounded by PROCESSOR_TIMEOUT_MS: no answer by then is no answer. */
async function callProcessor(deps: ProcessorCallDeps, request: ProcessorRequestRow, call: ProcessorCall): Promise<ProcessorAnswer> {
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

/**
 * What anyone holding the request row can ask of the processor, with the request's key: a call on a method already
 * held, made again; for a payment (which only the request that asked can make: see payment-call.ts), its reversal.
 */
function callFor(processor: PaymentProcessor, request: ProcessorRequestRow): ProcessorCall {
  const { amountCents, requestKey } = request;
  const currency = request.currency as Currency;
  switch (request.operation) {
    case 'capture':
    case 'commit_capture':
      return () => processor.capture(heldMethod(request), amountCents, currency, requestKey);
    case 'reauthorize':
      return () => processor.reauthorize(heldMethod(request), amountCents, currency, requestKey);
    case 'release':
      return () => processor.release(heldMethod(request), amountCents, requestKey).then(() => ({ outcome: 'released' }) as const);
    case 'refund':
      return () => processor.refund(heldMethod(request), amountCents, requestKey);
    case 'sale':
    case 'authorize':
    case 'charge_token':
      return () => processor.reverse(requestKey).then(() => ({ outcome: 'reversed' }) as const);
  }
}

function heldMethod(request: ProcessorRequestRow): string {
  return heldMethodRequest(request).processorReference;
}

function heldMethodRequest(request: ProcessorRequestRow): HeldMethodRequest {
  const { transactionId, processorReference } = request;
  if (transactionId === null || processorReference === null) throw new Error(`processor request ${request.id} (${request.operation}) names no held method`);
  return { ...request, transactionId, processorReference };
}

/**
 * The answer of a request that committed a processor request in flight (see ProcessorHandoff): the call and the
 * outcome's recording, after the commit. If the processor does not answer, the request is told so (502, not stored:
 * the Idempotency-Key stays in flight) and the worker records the outcome when the request's lease ends.
 */
export function answerFromProcessor(deps: ProcessorCallDeps, request: ProcessorRequestRow, record: RecordOutcome): ProcessorHandoff {
  return {
    answer: async () => {
      try {
        const answer = await finishProcessorRequest(deps, request, record);
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
        return answerOf(new ApiError('processor_failure', detail), originalRequestId(request));
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
 * Calls the processor for a request committed in flight, then records the outcome in one transaction: the recorder
 * applies it, the answer is kept under its Idempotency-Key (a reversed payment frees the key instead: its request may
 * be made again), and the request moves to done with the answer, guarded, so it is recorded once however many
 * callers got the answer (a loser rolls back): inside the recorder's event statement when the recorder passes its
 * PendingDone to recordChange (a capture's approval, a link payment's decision), else last, by markDone. Returns the
 * answer, whoever recorded it.
 *
 * A payment's outcome is recorded only under the attempt that called (`attempts`, which a worker's claim raises): a
 * worker that took the request over reverses the payment, so the approval that the request may still be holding must
 * not be recorded after that. A redoable call answers the same to every attempt, so any attempt may record it.
 */
export async function finishProcessorRequest(
  deps: ProcessorCallDeps,
  request: ProcessorRequestRow,
  how: RecordOutcome | PaymentFinish,
): Promise<RecordedAnswer | null> {
  const payment = typeof how === 'function' ? null : how;
  const answer = await callProcessor(deps, request, payment?.call ?? callFor(deps.processor, request));
  const releases: ProcessorRequestRow[] = [];
  let recorded: RecordedAnswer | null;
  try {
    recorded = await onFreshConnections(() => {
      releases.length = 0; // what an attempt rolled back queued was never committed
      return recordAnswer(deps, request, how, answer, releases);
    });
  } catch (error) {
    // Recorded by another (a worker that took the request over, or the request itself): its answer is the answer. A
    // recorder's own guard may be what failed first (the reservation it would settle is gone), so the request is read.
    // A database that cannot say is an outage, whatever failed first: the request stays in flight for the worker.
    const settled = await q.findProcessorRequest(deps.db, request.id).catch((unread: unknown) => {
      if (isDatabaseUnavailable(unread)) throw unread;
      return null;
    });
    if (settled?.state !== 'done') throw error;
    return recordedAnswer(settled);
  }
  await finishReleases(deps, releases);
  return recorded;
}

/** The recording of `answer` in one transaction of its own: the recorder's change, the key's answer, the move to done. */
function recordAnswer(
  deps: ProcessorCallDeps,
  request: ProcessorRequestRow,
  how: RecordOutcome | PaymentFinish,
  answer: ProcessorAnswer,
  releases: ProcessorRequestRow[],
): Promise<RecordedAnswer | null> {
  const payment = typeof how === 'function' ? null : how;
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    // A redoable call answers the same to every attempt, so any attempt may record it; a payment only the one that called.
    const done = new PendingDone({ id: request.id, outcome: outcomeOf(answer), now, attempt: isPayment(request.operation) ? request.attempts : null });
    let result: RecordedAnswer | null = null;
    if (answer.outcome === 'reversed') {
      await payment?.undo?.(tx, request);
      const key = idempotencyKeyOf(request);
      if (key) await forgetInFlightKey(tx, request.merchantId, key.key, key.takenAt);
    } else {
      result = payment
        ? await decide(payment, request, answer, tx, done)
        : await (how as RecordOutcome)(tx, heldMethodRequest(request), answer, { now, releases, done });
      const key = idempotencyKeyOf(request);
      if (result && key) await fillInFlightAnswer(tx, request.merchantId, key.key, key.takenAt, result);
    }
    const kept = done.kept;
    if (kept) {
      // The event's statement made it: with the answer the recorder gives, or the two would differ.
      if ((kept.answer?.status ?? null) !== (result?.status ?? null) || (kept.answer?.body ?? null) !== (result?.body ?? null)) {
        throw new Error(`processor request ${request.id} was moved to done with another answer than its recorder gave`);
      }
    } else if (!(await q.markDone(tx, done.mark, result))) {
      // Last, and guarded: of everyone recording this request, the first to commit wins; the others roll back.
      throw new RecordedElsewhere(request.id);
    }
    return result;
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

/** A payment's decision, which only its own request (the one holding `decide`) ever gets. */
function decide(payment: PaymentFinish, request: ProcessorRequestRow, answer: RedoableAnswer, tx: Tx, done: PendingDone): Promise<RecordedAnswer> {
  if (!payment.decide || answer.outcome === 'released') throw new Error(`payment request ${request.id} got a decision outside the request that made it`);
  // The payment's own call answered it (payAfterCommit's `call`): a payment's result, never a refund's.
  return payment.decide(tx, answer as ProcessorResult, done);
}

/** Gives back at the processor what committed releases released in the books. One that fails stays in flight for the worker. */
export async function finishReleases(deps: ProcessorCallDeps, releases: ProcessorRequestRow[]): Promise<void> {
  for (const release of releases) {
    try {
      await finishProcessorRequest(deps, release, recordRelease);
    } catch (error) {
      deps.logger.warn(
        { err: error, code: 'processor_release_deferred', processorRequestId: release.id },
        'release at the processor deferred: the request stays in flight and is retried when its lease ends',
      );
    }
  }
}

/** A release changes nothing more in the books (they moved when it was queued); done is all there is to record. */
export const recordRelease: RecordOutcome = async () => null;

function outcomeOf(answer: ProcessorAnswer): ProcessorOutcome {
  return answer.outcome;
}

export function recordedAnswer(row: ProcessorRequestRow | null): RecordedAnswer | null {
  if (!row || row.responseStatus === null || row.responseBody === null) return null;
  return { status: row.responseStatus, body: row.responseBody, contentType: row.responseStatus >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json' };
}
