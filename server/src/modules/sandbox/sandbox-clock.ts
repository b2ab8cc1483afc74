import type { TestClock } from '../../clock';
import type { Database, Queryable } from '../../db/client';
import { advanceClockOffset, readClockOffsetMs } from './sandbox-clock.queries';

export { SANDBOX_CLOCK_CHANNEL } from './sandbox-clock.queries';

/**
 * The sandbox test clock (docs/integrating.md#sandbox): real time plus an offset stored in the database, so every instance
 * shares it. `now()` is synchronous and reads a cached offset; `advance` updates the row and notifies the other
 * instances, which `refresh` on the notification (and on every expiry sweep, as a fallback).
 */
export class SandboxClock implements TestClock {
  #offsetMs = 0;

  constructor(
    private readonly db: Database,
    private readonly wallMs: () => number = () => Date.now(),
  ) {}

  now(): Date {
    return new Date(this.wallMs() + this.#offsetMs);
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  async refresh(): Promise<void> {
    this.#offsetMs = await readClockOffsetMs(this.db);
  }

  /**
   * Moves the shared clock forward (never back) by `seconds`, inside the caller's transaction; the notification
   * goes out when it commits. Call `refresh` after the commit to see the new time here.
   */
  async advance(seconds: number, db: Queryable): Promise<{ now: Date; offsetMs: number }> {
    const offsetMs = await advanceClockOffset(db, seconds * 1000);
    return { now: new Date(this.wallMs() + offsetMs), offsetMs };
  }
}
