import { ApiError } from '../../errors';
import { problemAnswer, type StoredAnswer } from '../../mutations/stored-answer';
import type { ProcessorCallDeps } from './call-outside-lock';
import { PROCESSOR_LEASE_MS } from './commit-intent';
import type { UndoPayment } from './operation';
import { claimForReversal, findProcessorRequest, type ProcessorRequestRow } from './processor-requests.queries';
import { finishProcessorRequest, originalRequestId, storedAnswerOfRequest } from './record-once';

/**
 * A payment that was not answered, or whose decision could not be recorded, reversed at the processor now by the
 * request that made it, unless it was recorded after all. The request first claims it as the worker does (a new
 * attempt, committed): that waits for a recording still in doubt (a commit whose acknowledgement was lost), and once
 * it returns no approval of the attempt that called can be recorded, so a reversal is never sent for a payment the
 * books show. Then the reversal is recorded once: `undo` ends what the intent committed and the Idempotency-Key is
 * freed. If another holds the request (the worker, reversing it), or the reversal is not answered, the row stays in
 * flight for the worker.
 */
export async function reversePayment(deps: ProcessorCallDeps, request: ProcessorRequestRow, undo: UndoPayment | undefined): Promise<StoredAnswer> {
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

function beingCancelled(request: ProcessorRequestRow): StoredAnswer {
  const detail =
    'The payment could not be completed (the processor did not answer in time, or its answer could not be recorded). It is being cancelled at the processor; try again in a minute (with the same Idempotency-Key it answers 409 until the cancel is recorded).';
  return problemAnswer(new ApiError('processor_failure', detail), originalRequestId(request));
}

/** The payment was reversed, by this request or by the worker before its answer came: nothing was charged. */
export function notCharged(request: ProcessorRequestRow): StoredAnswer {
  const detail =
    'The payment could not be completed (the processor did not answer in time, or its answer could not be recorded); it was cancelled at the processor and nothing was charged. Try again.';
  return problemAnswer(new ApiError('processor_failure', detail), originalRequestId(request));
}
