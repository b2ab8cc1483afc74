import type { Clock } from '../../clock';
import { isDatabaseUnavailable, OutageLog } from '../../db/database-outage';
import { forgetExpiredKeys } from '../../mutations/expired-keys';
import type { Logger } from '../../logger';
import { sweepDue, type SweepDeps } from './expiry';

export interface ExpiryWorker {
  stop(): Promise<void>;
}

/**
 * Sweeps time-outs and hold expiries every `intervalMs` (calling `onTick` after each, for readiness), following the clock (the sandbox clock included), and deletes
 * the Idempotency-Keys that expired (their answers and request fingerprints are kept no longer than they serve).
 */
export function startExpiryWorker(deps: SweepDeps & { clock: Clock; logger: Logger; intervalMs?: number; onTick?: () => void }): ExpiryWorker {
  const intervalMs = deps.intervalMs ?? 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  /** A database outage is logged once, not once per tick. */
  const outage = new OutageLog(deps.logger, 'expiry sweep');
  const tick = async () => {
    try {
      await deps.clock.refresh?.();
      const now = deps.clock.now();
      const swept = await sweepDue(deps, now);
      if (swept.timedOut + swept.expiredHolds + swept.expiredCommits + swept.expiredAuthentications > 0) deps.logger.info(swept, 'expired transactions');
      const forgotten = await forgetExpiredKeys(deps.db, now);
      if (forgotten > 0) deps.logger.debug({ forgotten }, 'expired idempotency keys deleted');
      outage.recovered();
    } catch (error) {
      if (isDatabaseUnavailable(error)) outage.failed(error);
      else deps.logger.error({ err: error }, 'expiry sweep failed; retrying on the next tick');
    }
    deps.onTick?.();
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, intervalMs);
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
