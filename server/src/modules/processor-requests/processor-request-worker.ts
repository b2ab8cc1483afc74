import { isDatabaseUnavailable, OutageLog } from '../../db/database-outage';
import { finishProcessorRequest, PROCESSOR_LEASE_MS, ProcessorUnanswered, type OutcomeRecorders, type ProcessorCallDeps } from './processor-call';
import { claimAbandoned } from './processor-requests.queries';

/** How many abandoned requests one claim takes. */
const CLAIM_BATCH = 50;

export interface ProcessorRequestWorker {
  stop(): Promise<void>;
}

/**
 * Finishes processor requests left in flight: their lease ran out because the process that asked crashed or stopped
 * between the call and recording its outcome, or the processor did not answer. Each is claimed for a new lease
 * (SKIP LOCKED, so instances share the work), called again with its key (the processor answers as it did the first
 * time) and its outcome recorded once. Returns how many were finished.
 */
export async function finishAbandonedProcessorRequests(deps: ProcessorCallDeps, recorders: OutcomeRecorders, now: Date): Promise<number> {
  let finished = 0;
  for (;;) {
    const claimed = await claimAbandoned(deps.db, now, new Date(now.getTime() + PROCESSOR_LEASE_MS), CLAIM_BATCH);
    for (const request of claimed) {
      try {
        await finishProcessorRequest(deps, request, recorders[request.operation]);
        finished += 1;
      } catch (error) {
        if (!(error instanceof ProcessorUnanswered) && isDatabaseUnavailable(error)) throw error;
        deps.logger.warn(
          { err: error, code: 'processor_request_deferred', processorRequestId: request.id, attempts: request.attempts },
          'processor request not finished; it stays in flight and is tried again when its lease ends',
        );
      }
    }
    if (claimed.length < CLAIM_BATCH) return finished;
  }
}

/** Runs `finishAbandonedProcessorRequests` at once (requests a crash or restart left behind) and then every `intervalMs`, following the clock. */
export function startProcessorRequestWorker(deps: ProcessorCallDeps & { recorders: OutcomeRecorders; intervalMs?: number }): ProcessorRequestWorker {
  const intervalMs = deps.intervalMs ?? 5_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const outage = new OutageLog(deps.logger, 'processor request worker');
  const tick = async () => {
    try {
      const finished = await finishAbandonedProcessorRequests(deps, deps.recorders, deps.clock.now());
      if (finished > 0) deps.logger.info({ finished }, 'finished processor requests left in flight');
      outage.recovered();
    } catch (error) {
      if (isDatabaseUnavailable(error)) outage.failed(error);
      else deps.logger.error({ err: error }, 'processor request worker failed; retrying on the next tick');
    }
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
