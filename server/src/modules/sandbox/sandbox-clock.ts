import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../../clock';
import type { Database, Queryable } from '../../db/client';
import { sandboxClock } from '../../db/schema';

export const SANDBOX_CLOCK_CHANNEL = 'svc_sandbox_clock';

/**
 * The sandbox test clock (CONTRACT §10): real time plus an offset stored in the database, so every instance
 * shares it. `now()` is synchronous and reads a cached offset; `advance` updates the row and notifies the other
 * instances, which `refresh` on the notification (and on every expiry sweep, as a fallback).
 */
export class SandboxClock implements Clock {
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
    const [row] = await this.db.select({ offsetMs: sandboxClock.offsetMs }).from(sandboxClock).where(eq(sandboxClock.id, 1));
    this.#offsetMs = row?.offsetMs ?? 0;
  }

  /**
   * Moves the shared clock forward (never back) by `seconds`, inside the caller's transaction; the notification
   * goes out when it commits. Call `refresh` after the commit to see the new time here.
   */
  async advance(seconds: number, db: Queryable): Promise<{ now: Date; offsetMs: number }> {
    const deltaMs = seconds * 1000;
    const [row] = await db
      .insert(sandboxClock)
      .values({ id: 1, offsetMs: deltaMs })
      .onConflictDoUpdate({ target: sandboxClock.id, set: { offsetMs: sql`${sandboxClock.offsetMs} + ${deltaMs}` } })
      .returning({ offsetMs: sandboxClock.offsetMs });
    await db.execute(sql`select pg_notify(${SANDBOX_CLOCK_CHANNEL}, ${String(row!.offsetMs)})`);
    return { now: new Date(this.wallMs() + row!.offsetMs), offsetMs: row!.offsetMs };
  }
}
