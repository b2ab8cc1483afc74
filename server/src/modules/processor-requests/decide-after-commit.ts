import type { Tx } from '../../db/client';
import { ApiError } from '../../errors';
import { answerOf, type MutationContext, type MutationResponse, type ProcessorHandoff } from '../../http/idempotency';
import { fillInFlightAnswer, forgetInFlightKey } from '../../http/idempotency.queries';
import type { ProcessorResult } from '../../processor/processor';
import type { ProcessorCallDeps } from './processor-call';

type Answer = Omit<MutationResponse, 'replayed'>;

/**
 * A processor call that only the request itself can make, because what it needs lives in its memory (a card) or its
 * outcome creates the record (a new payment): no processor_requests row, so no worker can call again after a crash.
 * The change that asks (the Idempotency-Key taken, a payment marked in flight) commits first; the call is made outside
 * any lock; `record` writes the outcome in a transaction of its own, which also fills in the answer under the key. If
 * the processor does not answer, `abandon` undoes the in-flight mark, the key is freed, and the caller is told to retry.
 */
export function decideAfterCommit(
  deps: ProcessorCallDeps,
  context: MutationContext,
  merchantId: string,
  call: () => Promise<ProcessorResult>,
  record: (tx: Tx, result: ProcessorResult) => Promise<Answer>,
  abandon?: (tx: Tx) => Promise<void>,
): ProcessorHandoff {
  return {
    answer: async () => {
      let result: ProcessorResult;
      try {
        result = await call();
      } catch (error) {
        deps.logger.warn({ err: error, code: 'processor_unanswered' }, 'the processor did not answer; nothing was recorded, the caller may retry');
        await deps.db.transaction(async (tx) => {
          await abandon?.(tx);
          if (context.idempotencyKey !== null) await forgetInFlightKey(tx, merchantId, context.idempotencyKey);
        });
        return answerOf(new ApiError('processor_failure', 'The processor did not answer; nothing was charged on our side. Try again.'), context.requestId);
      }
      return deps.db.transaction(async (tx) => {
        const answer = await record(tx, result);
        if (context.idempotencyKey !== null) await fillInFlightAnswer(tx, merchantId, context.idempotencyKey, answer);
        return answer;
      });
    },
  };
}
