/** Time as a dependency: rules ask the clock, never Date.now(), so tests and the sandbox test clock can move it. */
export interface Clock {
  now(): Date;
  /**
   * Catches up with a clock shared between instances (the sandbox test clock reads its offset from the database).
   * Absent where time is this process's own; the expiry worker calls it before each sweep.
   */
  refresh?(): Promise<void>;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock for tests that only moves when told to. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(seconds: number): void {
    this.#ms += seconds * 1000;
  }
}
