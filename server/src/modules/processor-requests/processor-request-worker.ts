import { isDatabaseUnavailable, OutageLog } from '../../db/database-outage';
import { redactSensitive } from '../../logger';
import { isDatabaseGone, ProcessorUnanswered, type ProcessorCallDeps } from './call-outside-lock';
import { PROCESSOR_LEASE_MS } from './commit-intent';
import type { ProcessorOperations } from './operation';
import { finishProcessorRequest } from './record-once';
import { claimAbandoned, findProcessorRequest, isPayment, noteFailure, setAsideForReview, type ProcessorRequestRow } from './processor-requests.queries';

/**
 * How many abandoned requests one claim takes: one at a time, so no request waits under a lease taken for it while
 * others before it are called (each may take PROCESSOR_TIMEOUT_MS; the first lease is two PROCESSOR_LEASE_MS).
 */
const CLAIM_BATCH = 1;
/** The longest wait between two attempts of one request (each waits twice as long as the one before). */
const MAX_LEASE_MS = 3_600_000;

export interface ProcessorRequestWorker {
  stop(): Promise<void>;
}

/**
 * Finishes processor requests left in flight: their lease ran out because the process that asked crashed or stopped
 * between the call and recording its outcome, or the processor did not answer. Each is claimed for another attempt
 * (SKIP LOCKED, so instances share the work): a call on a method already held is made again with its key (the
 * processor answers as it did the first time), a payment is reversed by its key; the outcome is recorded once. A
 * request still unfinished PROCESSOR_REQUEST_GIVE_UP_S after it was asked (or an operator retried it), once an attempt
 * of the worker's own has failed, is set aside as `needs_review` with an error logged: what it reserved (a capture's
 * amount, a commit) stays reserved until an operator settles it with the acquirer and retries it (`svc
 * processor-requests`). Returns how many were finished.
 */
export async function finishAbandonedProcessorRequests(deps: ProcessorCallDeps, operations: ProcessorOperations, now: Date): Promise<number> {
  let finished = 0;
  const startedAt = deps.clock.now().getTime();
  for (;;) {
    // The time of this claim: the worker's `now`, moved on by the time the earlier requests took.
    const claimedAt = new Date(now.getTime() + (deps.clock.now().getTime() - startedAt));
    // Due by the run's `now` (so a run ends: requests that fall due during it wait for the next tick); leased from claimedAt.
    const claimed = await claimAbandoned(deps.db, now, PROCESSOR_LEASE_MS, MAX_LEASE_MS, CLAIM_BATCH, claimedAt);
    for (const request of claimed) {
      const since = request.retriedAt ?? request.createdAt;
      try {
        // A payment is reversed (its card was only in its request's memory); a call on a method already held, made again.
        const kind = request.operation;
        await finishProcessorRequest(deps, request, isPayment(kind) ? { payment: true, undo: operations[kind].undo } : operations[kind]);
        finished += 1;
        // Taken again and still pending (its webhook never came): past the give-up time, it waits for an operator too.
        if (claimedAt.getTime() - since.getTime() >= deps.env.PROCESSOR_REQUEST_GIVE_UP_S * 1000 && (await stillPending(deps, request))) {
          await noteFailure(deps.db, request.id, request.attempts, 'the processor took the call but no webhook told its outcome');
          await giveUp(deps, request);
        }
      } catch (error) {
        if (isDatabaseGone(error)) throw error;
        deps.logger.warn(
          { err: error, code: 'processor_request_deferred', processorRequestId: request.id, operation: request.operation, attempts: request.attempts },
          'processor request not finished; it stays in flight and is tried again when its lease ends',
        );
        await noteFailure(deps.db, request.id, request.attempts, messageOf(error));
        // Given up only after an attempt of the worker's own has just failed, once past the give-up time.
        if (claimedAt.getTime() - since.getTime() >= deps.env.PROCESSOR_REQUEST_GIVE_UP_S * 1000) await giveUp(deps, request);
      }
    }
    if (claimed.length < CLAIM_BATCH) return finished;
  }
}

/** Whether `request` is still in flight with its outcome to come by webhook (its Pending answer recorded). */
async function stillPending(deps: ProcessorCallDeps, request: ProcessorRequestRow): Promise<boolean> {
  const now = await findProcessorRequest(deps.db, request.id);
  return now?.state === 'in_flight' && now.pendingReference !== null;
}

async function giveUp(deps: ProcessorCallDeps, request: ProcessorRequestRow): Promise<void> {
  const aside = await setAsideForReview(deps.db, request.id, request.attempts);
  if (!aside) return;
  deps.logger.error(
    {
      code: 'processor_request_needs_review',
      processorRequestId: request.id,
      operation: request.operation,
      requestKey: request.requestKey,
      transactionId: request.transactionId,
      attempts: request.attempts,
      lastError: aside.lastError,
    },
    'processor request given up after PROCESSOR_REQUEST_GIVE_UP_S: settle it with the acquirer by its request key (see `svc processor-requests`)',
  );
}

/** The error's message as the operator may see it: drizzle's query parameters and card- or key-shaped text removed. */
function messageOf(error: unknown): string {
  const cause = error instanceof ProcessorUnanswered ? error.cause : error;
  return redactSensitive(cause instanceof Error ? cause.message : String(cause)) as string;
}

/**
 * Runs `finishAbandonedProcessorRequests` at once (requests a crash or restart left behind) and then every `intervalMs`,
 * following the clock; `onTick` after each run, for readiness.
 */
export function startProcessorRequestWorker(
  deps: ProcessorCallDeps & { operations: ProcessorOperations; intervalMs?: number; onTick?: () => void },
): ProcessorRequestWorker {
  const intervalMs = deps.intervalMs ?? 5_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const outage = new OutageLog(deps.logger, 'processor request worker');
  const tick = async () => {
    try {
      const finished = await finishAbandonedProcessorRequests(deps, deps.operations, deps.clock.now());
      if (finished > 0) deps.logger.info({ finished }, 'finished processor requests left in flight');
      outage.recovered();
    } catch (error) {
      if (isDatabaseUnavailable(error)) outage.failed(error);
      else deps.logger.error({ err: error }, 'processor request worker failed; retrying on the next tick');
    }
    deps.onTick?.();
  };
  let running = tick();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, intervalMs);
  };
  void running.finally(schedule);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
