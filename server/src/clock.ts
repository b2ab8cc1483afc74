import type { Queryable } from './db/client';

/** Time as a dependency: rules ask the clock, never Date.now(), so tests and the sandbox test clock can move it. */
export interface Clock {
  now(): Date;
  /**
   * Catches up with a clock shared between instances (the sandbox test clock reads its offset from the database).
   * Absent where time is this process's own; the expiry worker calls it before each sweep.
   */
  refresh?(): Promise<void>;
}

/**
 * The sandbox's test clock, as the core sees it (a port: the sandbox module's SandboxClock implements it). Shared by
 * every instance: `advance` moves it inside the caller's transaction, `refresh` catches up with a move. Sandbox only.
 */
export interface TestClock extends Clock {
  readonly offsetMs: number;
  refresh(): Promise<void>;
  advance(seconds: number, db: Queryable): Promise<{ now: Date; offsetMs: number }>;
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
