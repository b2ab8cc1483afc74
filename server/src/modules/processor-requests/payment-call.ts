import type { Tx } from '../../db/client';
import { isDatabaseUnavailable } from '../../db/database-outage';
import { ApiError, DatabaseUnavailableError } from '../../errors';
import type { AnswerAfterCommit, MutationContext } from '../../mutations/mutation';
import { problemAnswer, type StoredAnswer } from '../../mutations/stored-answer';
import type { ProcessorResult } from '../../processor/processor';
import type { PaymentOperation, Recording, UndoPayment } from './operation';
import {
  finishProcessorRequest,
  fromMutation,
  originalRequestId,
  PROCESSOR_LEASE_MS,
  ProcessorUnanswered,
  queueProcessorRequest,
  queueProcessorRequestWith,
  storedAnswerOfRequest,
  type NewProcessorRequest,
  type NewRequestWithWrite,
  type PaymentFinish,
  type ProcessorCallDeps,
} from './processor-call';
import { claimForReversal, findProcessorRequest, type GuardedWrite, type ProcessorRequestRow } from './processor-requests.queries';

/** What a payment's request asks, besides its kind (its declaration's, or its guarded write's). */
export type PaymentAsked = Omit<NewProcessorRequest, 'operation' | 'idempotencyKey' | 'idempotencyKeyTakenAt'>;

/**
 * A payment that only the request itself can make: the card lives in its memory (`input`), or its outcome creates the
 * record. The change that asks (the Idempotency-Key taken, a link marked in flight) commits together with a
 * processor_requests row; the call (`operation.call`) is made after the commit, outside any lock, with the row's
 * request key; the decision is recorded (`operation.record`) in a transaction of its own, which marks the row done and
 * fills in the answer under the key. When the processor does not answer (PROCESSOR_TIMEOUT_MS), or its decision
 * cannot be recorded, the payment is reversed at the processor by its key, and the key freed: the caller is told
 * nothing was charged and may try again. Should the reversal not be answered either, or the database be gone while
 * the decision is recorded (503: not the processor's fault), the row stays in flight and the worker reverses it when
 * its lease ends (a retry with the key gets 409 until then). Either way no payment stays charged that the books do not
 * show.
 */
export function payAfterCommit<Input>(
  tx: Tx,
  deps: ProcessorCallDeps,
  context: MutationContext,
  operation: PaymentOperation<Input>,
  input: Input,
  asked: PaymentAsked,
): Promise<AnswerAfterCommit>;
/** The same, for the transaction a guarded write changes (a link marked in flight), in one statement with it: null when its guard refused. */
export function payAfterCommit<Input>(
  tx: Tx,
  deps: ProcessorCallDeps,
  context: MutationContext,
  operation: PaymentOperation<Input>,
  input: Input,
  asked: Omit<NewRequestWithWrite, 'operation' | 'idempotencyKey' | 'idempotencyKeyTakenAt'>,
  guarded: GuardedWrite,
): Promise<AnswerAfterCommit | null>;
export async function payAfterCommit<Input>(
  tx: Tx,
  deps: ProcessorCallDeps,
  context: MutationContext,
  operation: PaymentOperation<Input>,
  input: Input,
  asked: Omit<NewRequestWithWrite, 'operation' | 'idempotencyKey' | 'idempotencyKeyTakenAt'> & { transactionId?: string | null },
  guarded?: GuardedWrite,
): Promise<AnswerAfterCommit | null> {
  const now = deps.clock.now();
  const request = { ...asked, ...(operation.kind ? { operation: operation.kind } : {}), ...fromMutation(context, asked.details) };
  const queued = guarded ? await queueProcessorRequestWith(tx, guarded, request, now) : await queueProcessorRequest(tx, unguarded(request), now);
  if (!queued) return null;
  const { undo } = operation;
  return {
    answer: async () => {
      try {
        const finish: PaymentFinish = {
          payment: true,
          call: () => operation.call(deps.processor, queued, input),
          record: (tx: Tx, result: ProcessorResult, recording: Recording) => operation.record(tx, queued, result, input, recording),
          undo,
          withDecision: context.withDecision,
        };
        // Null: the worker took the request over (its lease ran out) and reversed it before this answer came.
        return (await finishProcessorRequest(deps, queued, finish)) ?? notCharged(queued);
      } catch (error) {
        if (!(error instanceof ProcessorUnanswered) && isDatabaseUnavailable(error)) throw unrecordedForTheDatabase();
        return reverseUnrecorded(deps, queued, undo, error);
      }
    },
  };
}

/**
 * The processor decided, but the database could not take the decision, on fresh connections too (finishProcessorRequest
 * retries a lost one): the database is at fault, not the processor (503, never 502). The request cannot reverse the
 * payment now, since claiming it for the reversal needs the database too: it stays in flight, and the worker, once its
 * lease ends and the database answers, reverses it by its key (the decision lived only in this request's memory), the
 * Idempotency-Key freed and a link payable again.
 */
function unrecordedForTheDatabase(): DatabaseUnavailableError {
  return new DatabaseUnavailableError(
    'The processor answered, but the database became unavailable while the payment was being recorded. The payment stays in flight and is cancelled at the processor automatically once the database is back, so nothing stays charged; pay again after that (a retry with the same Idempotency-Key, or of the same payment link, answers 409 until then).',
  );
}

/**
 * The payment was not answered, or its decision could not be recorded: reversed at the processor now, unless it was
 * recorded after all. The request first claims it as the worker does (a new attempt, committed): that waits for a
 * recording still in doubt (a commit whose acknowledgement was lost), and once it returns no approval of the attempt
 * that called can be recorded, so a reversal is never sent for a payment the books show. If another holds the request
 * (the worker, reversing it), or the reversal is not answered, the row stays in flight for the worker.
 */
async function reverseUnrecorded(deps: ProcessorCallDeps, request: ProcessorRequestRow, undo: UndoPayment | undefined, error: unknown): Promise<StoredAnswer> {
  const unanswered = error instanceof ProcessorUnanswered;
  deps.logger.warn(
    { err: unanswered ? error.cause : error, code: unanswered ? 'processor_unanswered' : 'payment_unrecorded', processorRequestId: request.id },
    'payment not recorded; reversing it at the processor',
  );
  let claimed: ProcessorRequestRow | null;
  try {
    claimed = await claimForReversal(deps.db, request.id, request.attempts, new Date(deps.clock.now().getTime() + PROCESSOR_LEASE_MS));
    if (!claimed) {
      const now = await findProcessorRequest(deps.db, request.id);
      if (now?.state === 'done') return storedAnswerOfRequest(now) ?? notCharged(request);
      return beingCancelled(request);
    }
  } catch (claim) {
    // The database did not let the request claim it (an outage, or a recording in doubt past statement_timeout): the
    // row is still in flight under its first lease, and the worker reverses it (or finds it recorded) when that ends.
    deps.logger.warn({ err: claim, code: 'processor_reversal_deferred', processorRequestId: request.id }, 'reversal deferred to the worker');
    return beingCancelled(request);
  }
  try {
    return (await finishProcessorRequest(deps, claimed, { payment: true, undo })) ?? notCharged(request);
  } catch (reversal) {
    deps.logger.warn(
      { err: reversal, code: 'processor_reversal_deferred', processorRequestId: request.id },
      'reversal deferred: the payment stays in flight and the worker reverses it when its lease ends',
    );
    return beingCancelled(request);
  }
}

/** Without a guarded write, the payment names all that is asked (the overloads of payAfterCommit see to it). */
function unguarded(request: Omit<NewRequestWithWrite, 'operation'> & Partial<Pick<NewProcessorRequest, 'operation' | 'transactionId'>>): NewProcessorRequest {
  const { operation, merchantId, amountCents, currency } = request;
  if (operation === undefined || merchantId === undefined || amountCents === undefined || currency === undefined) {
    throw new Error('a payment without a guarded write names its operation, merchant, amount and currency');
  }
  return {
    ...request,
    operation,
    merchantId,
    amountCents,
    currency,
    processorReference: request.processorReference ?? null,
    transactionId: request.transactionId ?? null,
  };
}

function beingCancelled(request: ProcessorRequestRow): StoredAnswer {
  const detail =
    'The payment could not be completed (the processor did not answer in time, or its answer could not be recorded). It is being cancelled at the processor; try again in a minute (with the same Idempotency-Key it answers 409 until the cancel is recorded).';
  return problemAnswer(new ApiError('processor_failure', detail), originalRequestId(request));
}

function notCharged(request: ProcessorRequestRow): StoredAnswer {
  const detail =
    'The payment could not be completed (the processor did not answer in time, or its answer could not be recorded); it was cancelled at the processor and nothing was charged. Try again.';
  return problemAnswer(new ApiError('processor_failure', detail), originalRequestId(request));
}
