import type { Tx } from '../../db/client';
import { ApiError, DatabaseUnavailableError } from '../../errors';
import type { AnswerAfterCommit, MutationContext } from '../../mutations/mutation';
import { problemAnswer, type StoredAnswer } from '../../mutations/stored-answer';
import { isDatabaseGone, ProcessorUnanswered, type PaymentFinish, type ProcessorCallDeps } from './call-outside-lock';
import { commitIntent, type Asked, type AskedWithWrite } from './commit-intent';
import type { HeldMethodOperation, PaymentOperation } from './operation';
import type { GuardedWrite, ProcessorRequestRow } from './processor-requests.queries';
import { finishProcessorRequest, originalRequestId } from './record-once';
import { notCharged, reversePayment } from './reverse-payment';

/** A request committed with the change that asked for it, and the answer the HTTP mutation runner calls once that change has committed. */
export interface AskedRequest {
  request: ProcessorRequestRow;
  answer: AnswerAfterCommit;
}

/**
 * A call on a method held (a capture, a commit's capture, a re-authorization, a refund), asked by a service: the
 * request commits with the change (`commitIntent`); after the commit it is called outside any lock and recorded once
 * by `operation`, and the answer is the recorded outcome. With a guarded write (its intent: a capture's reservation,
 * a re-authorization's lock), the two go in as one statement, and null means its guard refused: nothing is written.
 * If the processor does not answer, the asker is told so (502, not stored: the Idempotency-Key stays in flight) and
 * the worker calls again with the request's key and records the outcome when the request's lease ends.
 */
export function askProcessor(tx: Tx, deps: ProcessorCallDeps, context: MutationContext, operation: HeldMethodOperation, asked: Asked): Promise<AskedRequest>;
export function askProcessor(
  tx: Tx,
  deps: ProcessorCallDeps,
  context: MutationContext,
  operation: HeldMethodOperation,
  asked: AskedWithWrite,
  guarded: GuardedWrite,
): Promise<AskedRequest | null>;
export async function askProcessor(
  tx: Tx,
  deps: ProcessorCallDeps,
  context: MutationContext,
  operation: HeldMethodOperation,
  asked: AskedWithWrite & { transactionId?: string | null },
  guarded?: GuardedWrite,
): Promise<AskedRequest | null> {
  const request = await commitIntent(tx, context, operation.kind, asked, guarded, deps.clock.now());
  if (!request) return null;
  const recorded = async () => {
    const answer = await finishProcessorRequest(deps, request, operation);
    if (!answer) throw new Error(`processor request ${request.id} was recorded without an answer`);
    return answer;
  };
  return { request, answer: answerAfterCommit(deps, request, recorded, STAYS_IN_FLIGHT) };
}

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
  asked: Asked,
): Promise<AnswerAfterCommit>;
/** The same, for the transaction a guarded write changes (a link marked in flight), in one statement with it: null when its guard refused. */
export function payAfterCommit<Input>(
  tx: Tx,
  deps: ProcessorCallDeps,
  context: MutationContext,
  operation: PaymentOperation<Input>,
  input: Input,
  asked: AskedWithWrite,
  guarded: GuardedWrite,
): Promise<AnswerAfterCommit | null>;
export async function payAfterCommit<Input>(
  tx: Tx,
  deps: ProcessorCallDeps,
  context: MutationContext,
  operation: PaymentOperation<Input>,
  input: Input,
  asked: AskedWithWrite & { transactionId?: string | null },
  guarded?: GuardedWrite,
): Promise<AnswerAfterCommit | null> {
  const request = await commitIntent(tx, context, operation.kind, asked, guarded, deps.clock.now());
  if (!request) return null;
  const { undo } = operation;
  const finish: PaymentFinish = {
    payment: true,
    call: (processor) => operation.call(processor, request, input),
    record: (tx, result, recording) => operation.record(tx, request, result, input, recording),
    undo,
    withDecision: context.withDecision,
  };
  // Null: the worker took the request over (its lease ran out) and reversed it before this answer came.
  const recorded = async () => (await finishProcessorRequest(deps, request, finish)) ?? notCharged(request);
  return answerAfterCommit(deps, request, recorded, { ...REVERSED, answer: () => reversePayment(deps, request, undo) });
}

/** What the asker is told when, after its commit, the call and its recording gave no answer: the request stays in flight. */
interface Unfinished {
  /** The log line's code when the processor answered but its answer could not be recorded (`processor_unanswered` when it did not answer). */
  unrecordedCode: string;
  logged: (unanswered: boolean) => string;
  /** The detail of the 503 when the database became unavailable while recording: the database's failure, not the processor's. */
  databaseGone: string;
  answer: (unanswered: boolean, request: ProcessorRequestRow) => StoredAnswer | Promise<StoredAnswer>;
}

/**
 * The answer after the commit: `recorded`, the call and its recording. When they give no answer the request is still
 * committed and in flight, and the processor that did not answer, or an answer that could not be recorded, is logged
 * and answered by `unfinished`; a database gone while recording is answered 503.
 */
function answerAfterCommit(
  deps: ProcessorCallDeps,
  request: ProcessorRequestRow,
  recorded: () => Promise<StoredAnswer>,
  unfinished: Unfinished,
): AnswerAfterCommit {
  return {
    answer: async () => {
      try {
        return await recorded();
      } catch (error) {
        if (isDatabaseGone(error)) throw new DatabaseUnavailableError(unfinished.databaseGone);
        const unanswered = error instanceof ProcessorUnanswered;
        deps.logger.warn(
          { err: unanswered ? error.cause : error, code: unanswered ? 'processor_unanswered' : unfinished.unrecordedCode, processorRequestId: request.id },
          unfinished.logged(unanswered),
        );
        return unfinished.answer(unanswered, request);
      }
    },
  };
}

/** A call on a method held: it stays in flight, and the worker makes the call again and records its outcome. */
const STAYS_IN_FLIGHT: Unfinished = {
  unrecordedCode: 'processor_outcome_unrecorded',
  logged: (unanswered) =>
    unanswered
      ? 'the processor did not answer; the request stays in flight for the worker'
      : 'the outcome could not be recorded; the request stays in flight for the worker',
  databaseGone:
    "The database became unavailable while the processor's answer was being recorded. The request stays in flight and its outcome is recorded automatically once the database is back (a callback follows); retry with the same Idempotency-Key after the seconds Retry-After gives to read it.",
  answer: (unanswered, request) => {
    const why = unanswered ? 'The processor did not answer in time.' : "The processor's answer could not be recorded yet.";
    const detail = `${why} The request stays in flight and its outcome is recorded automatically (a callback follows); retry with the same Idempotency-Key to read it.`;
    return problemAnswer(new ApiError('processor_failure', detail), originalRequestId(request));
  },
};

/**
 * A payment is reversed (`reversePayment`). When the processor decided but the database could not take the decision,
 * on fresh connections too, the request cannot reverse it now, since claiming it for the reversal needs the database
 * too: it stays in flight, and the worker, once its lease ends and the database answers, reverses it by its key (the
 * decision lived only in this request's memory), the Idempotency-Key freed and a link payable again.
 */
const REVERSED: Omit<Unfinished, 'answer'> = {
  unrecordedCode: 'payment_unrecorded',
  logged: () => 'payment not recorded; reversing it at the processor',
  databaseGone:
    'The processor answered, but the database became unavailable while the payment was being recorded. The payment stays in flight and is cancelled at the processor automatically once the database is back, so nothing stays charged; pay again after that (a retry with the same Idempotency-Key, or of the same payment link, answers 409 until then).',
};
