export interface RetryPolicy {
  /** Waits in seconds after each failed attempt: CALLBACK_RETRY_SCHEDULE_S (15, 60, 120, 600, 2000, 32000). */
  scheduleS: number[];
  /** Communication errors are retried until this long after the first attempt: CALLBACK_GIVE_UP_AFTER_S (3 days). */
  giveUpAfterS: number;
}

export type AfterAttempt = { state: 'succeeded' } | { state: 'failed'; reason: string } | { state: 'pending'; nextAttemptAt: Date; schedulePosition: number };

/**
 * What follows an attempt (docs/integrating.md#delivery-and-retries): a 2xx succeeds; 410 stops; otherwise the next wait of the schedule;
 * once the schedule is spent, communication errors go on at its last interval until the window closes.
 */
export function afterAttempt(
  outcome: { ok: boolean; httpStatus: number | null; communicationError: boolean },
  position: number,
  windowStartedAt: Date,
  now: Date,
  policy: RetryPolicy,
): AfterAttempt {
  if (outcome.ok) return { state: 'succeeded' };
  if (outcome.httpStatus === 410) return { state: 'failed', reason: 'the endpoint answered 410 Gone' };
  const wait = policy.scheduleS[position];
  if (wait !== undefined) return { state: 'pending', nextAttemptAt: new Date(now.getTime() + wait * 1000), schedulePosition: position + 1 };
  const last = policy.scheduleS.at(-1) ?? 0;
  const windowEnds = windowStartedAt.getTime() + policy.giveUpAfterS * 1000;
  if (outcome.communicationError && last > 0 && now.getTime() + last * 1000 <= windowEnds) {
    return { state: 'pending', nextAttemptAt: new Date(now.getTime() + last * 1000), schedulePosition: position };
  }
  return { state: 'failed', reason: outcome.communicationError ? 'unreachable for the whole retry window' : 'every scheduled attempt failed' };
}
