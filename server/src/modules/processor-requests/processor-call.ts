import { randomBytes } from 'node:crypto';
import { PROBLEM_CONTENT_TYPE, type Currency } from '@svc/protocol';
import type { Clock } from '../../clock';
import type { Database, Tx } from '../../db/client';
import { ApiError } from '../../errors';
import { answerOf, type ProcessorHandoff } from '../../http/idempotency';
import { fillInFlightAnswer } from '../../http/idempotency.queries';
import type { Logger } from '../../logger';
import type { PaymentProcessor, ProcessorResult } from '../../processor/processor';
import * as q from './processor-requests.queries';
import type { ProcessorOutcome, ProcessorRequestRow } from './processor-requests.queries';

/** How long a request's call may stay unanswered before a worker takes it over (and calls again, with the same key). */
export const PROCESSOR_LEASE_MS = 60_000;

/** What the processor said to one request: a capture's result, or that a release was made. */
export type ProcessorAnswer = ProcessorResult | { outcome: 'released' };

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
}

/** Records a request's outcome in tx 2, beside marking it done; `releases` are requests it queued, called after the commit. */
export type RecordOutcome = (
  tx: Tx,
  request: ProcessorRequestRow,
  answer: ProcessorAnswer,
  context: { now: Date; releases: ProcessorRequestRow[] },
) => Promise<RecordedAnswer | null>;

/** The outcome recorder for each operation, so a worker can finish any request. */
export type OutcomeRecorders = Record<q.ProcessorOperation, RecordOutcome>;

/** A new request, in flight under a lease from `now`; insert it in the transaction of the guarded write it belongs to. */
export function queueProcessorRequest(
  tx: Tx,
  request: {
    operation: q.ProcessorOperation;
    transactionId: string;
    merchantId: string;
    processorReference: string;
    amountCents: number;
    currency: string;
    idempotencyKey?: string | null;
    details?: Record<string, unknown>;
  },
  now: Date,
): Promise<ProcessorRequestRow> {
  return q.insertProcessorRequest(tx, {
    ...request,
    idempotencyKey: request.idempotencyKey ?? null,
    details: request.details ?? {},
    requestKey: `prq_${randomBytes(16).toString('hex')}`,
    leaseExpiresAt: new Date(now.getTime() + PROCESSOR_LEASE_MS),
    createdAt: now,
  });
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

/** The call itself, outside any database transaction, with the request's key. */
async function callProcessor(processor: PaymentProcessor, request: ProcessorRequestRow): Promise<ProcessorAnswer> {
  const { processorReference: reference, amountCents, requestKey } = request;
  try {
    switch (request.operation) {
      case 'capture':
      case 'commit_capture':
        return await processor.capture(reference, amountCents, request.currency as Currency, requestKey);
      case 'reauthorize':
        return await processor.reauthorize(reference, amountCents, request.currency as Currency, requestKey);
      case 'release':
        await processor.release(reference, amountCents, requestKey);
        return { outcome: 'released' };
    }
  } catch (error) {
    throw new ProcessorUnanswered(request, error);
  }
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
        if (!(error instanceof ProcessorUnanswered)) throw error;
        deps.logger.warn(
          { err: error.cause, code: 'processor_unanswered', processorRequestId: request.id },
          'the processor did not answer; the request stays in flight for the worker',
        );
        const detail =
          'The processor did not answer in time. The request stays in flight and its outcome is recorded automatically (a callback follows); retry with the same Idempotency-Key to read it.';
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
 * Calls the processor for a request committed in flight, then records the outcome in one transaction: the request
 * moves to done (guarded, so it is recorded once however many callers got the answer), the recorder applies it, and
 * the answer is kept on the request and under its Idempotency-Key. Returns the answer, whoever recorded it.
 */
export async function finishProcessorRequest(deps: ProcessorCallDeps, request: ProcessorRequestRow, record: RecordOutcome): Promise<RecordedAnswer | null> {
  const answer = await callProcessor(deps.processor, request);
  const releases: ProcessorRequestRow[] = [];
  const recorded = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const mine = await q.markDone(tx, request.id, outcomeOf(answer), now);
    if (!mine) return recordedAnswer(await q.findProcessorRequest(tx, request.id));
    const result = await record(tx, mine, answer, { now, releases });
    if (result) {
      await q.storeAnswer(tx, mine.id, result);
      if (mine.idempotencyKey !== null) await fillInFlightAnswer(tx, mine.merchantId, mine.idempotencyKey, result);
    }
    return result;
  });
  await finishReleases(deps, releases);
  return recorded;
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

function recordedAnswer(row: ProcessorRequestRow | null): RecordedAnswer | null {
  if (!row || row.responseStatus === null || row.responseBody === null) return null;
  return { status: row.responseStatus, body: row.responseBody, contentType: row.responseStatus >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json' };
}
