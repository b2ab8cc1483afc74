import type { Clock } from '../../clock';
import type { Database, Tx } from '../../db/client';
import { isDatabaseUnavailable } from '../../db/database-outage';
import type { Env } from '../../env';
import type { Logger } from '../../logger';
import type { WithDecision } from '../../mutations/mutation';
import type { Outcome } from '../../mutations/stored-answer';
import type { ActionRequired, NothingFound, PaymentProcessor, PaymentResult } from '../../processor/processor';
import { processorOf, type ProcessorRegistry } from '../../processor/processor-registry';
import type { HeldMethodAnswer, HeldMethodOperation, HeldMethodRequest, Recording, UndoPayment } from './operation';
import { reversalReferenceOf, type ProcessorRequestRow } from './processor-requests.queries';

export interface ProcessorCallDeps {
  db: Database;
  /** The default account's processor; a merchant's own is found through `processors` (processorOf). */
  processor: PaymentProcessor;
  processors?: ProcessorRegistry;
  clock: Clock;
  logger: Logger;
  env: Env;
}

/** What the processor said to one request: also, that a payment was reversed. */
export type ProcessorAnswer = HeldMethodAnswer | ActionRequired | { outcome: 'reversed' };

/**
 * How a payment's request is finished: by the request that made it, its call and the recording of its decision
 * (which only it can make); by anyone, its reversal (no `call`), then `undo`.
 */
export interface PaymentFinish {
  payment: true;
  /** The payment's own call, on the merchant's processor (found before the call, so a database error is never taken for the processor's silence). */
  call?: (processor: PaymentProcessor) => Promise<PaymentResult>;
  record?: (tx: Tx, result: PaymentResult, recording: Recording) => Promise<Outcome>;
  undo?: UndoPayment;
  /** The asker's writes made with the decision `record` records (MutationContext's `withDecision`); not with a reversal. */
  withDecision?: WithDecision;
}

/** How a request is finished: a call on a method held, made with its key by anyone holding it; or a payment's. */
export type RequestFinish = HeldMethodOperation | PaymentFinish;

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

/**
 * Whether `error` is the database's failure, not the processor's: an unanswered processor's own error may carry a
 * socket code too, and is never taken for the database's.
 */
export function isDatabaseGone(error: unknown): boolean {
  return !(error instanceof ProcessorUnanswered) && isDatabaseUnavailable(error);
}

/**
 * The call `how` makes, after the intent committed, outside any database transaction: no row is locked and no
 * connection held while the processor thinks. A call on a method held is made with the request's key (again, for a
 * worker); a payment's own call by the request that made it; else the payment's reversal by its key. Bounded by
 * PROCESSOR_TIMEOUT_MS: no answer by then is no answer (ProcessorUnanswered), as is a call that throws.
 */
export async function callOutsideLock(deps: ProcessorCallDeps, request: ProcessorRequestRow, how: RequestFinish): Promise<ProcessorAnswer> {
  const call = callOf(deps, await processorOf(deps, request.merchantId), request, how);
  try {
    return await withinTimeout(call(), deps.env.PROCESSOR_TIMEOUT_MS);
  } catch (error) {
    throw new ProcessorUnanswered(request, error);
  }
}

/**
 * A processor call bounded by PROCESSOR_TIMEOUT_MS (`timeoutMs`): its answer, or a rejection once the time is up
 * (the call may still finish at the processor: its request key makes that harmless). Every processor call the service
 * makes outside the runner (the 3-D Secure completion, its reversals) is bounded by it too.
 */
export async function withinTimeout<T>(call: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within PROCESSOR_TIMEOUT_MS (${timeoutMs} ms)`)), timeoutMs);
  });
  try {
    return await Promise.race([call, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function callOf(deps: ProcessorCallDeps, processor: PaymentProcessor, request: ProcessorRequestRow, how: RequestFinish): () => Promise<ProcessorAnswer> {
  if (!('payment' in how)) return () => how.call(processor, heldMethodRequest(request));
  const pay = how.call;
  if (pay) return () => pay(processor);
  return async () => {
    const found = await processor.reverse(request.requestKey, reversalReferenceOf(request));
    if (found) logNothingFound(deps.logger, found, { processorRequestId: request.id });
    return { outcome: 'reversed' };
  };
}

/**
 * A reversal that found nothing made with its key: nothing to undo if the payment never reached the acquirer, which
 * is the usual case; else a charge the connector could not find, which the operator refunds at the acquirer.
 */
export function logNothingFound(logger: Logger, found: NothingFound, about: Record<string, string>): void {
  logger.warn(
    { code: 'processor_reversal_nothing_found', ...about, processor: found.processor, searched: found.searched },
    "reversal found no payment made with this request key at the processor: it never reached it, or it is beyond what was searched; check the acquirer's dashboard for a payment whose metadata names the key",
  );
}

/** A request for a call on a method held, as its declaration takes it: it names its transaction and the method. */
export function heldMethodRequest(request: ProcessorRequestRow): HeldMethodRequest {
  const { transactionId, processorReference } = request;
  if (transactionId === null || processorReference === null) throw new Error(`processor request ${request.id} (${request.operation}) names no held method`);
  return { ...request, transactionId, processorReference };
}
