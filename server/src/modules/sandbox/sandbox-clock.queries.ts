import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { sandboxClock } from '../../db/schema';

export const SANDBOX_CLOCK_CHANNEL = 'svc_sandbox_clock';

export async function readClockOffsetMs(db: Queryable): Promise<number> {
  const [row] = await db.select({ offsetMs: sandboxClock.offsetMs }).from(sandboxClock).where(eq(sandboxClock.id, 1));
  return row?.offsetMs ?? 0;
}

/** Adds `deltaMs` to the shared offset and announces the new one to every instance when the transaction commits. */
export async function advanceClockOffset(db: Queryable, deltaMs: number): Promise<number> {
  const [row] = await db
    .insert(sandboxClock)
    .values({ id: 1, offsetMs: deltaMs })
    .onConflictDoUpdate({ target: sandboxClock.id, set: { offsetMs: sql`${sandboxClock.offsetMs} + ${deltaMs}` } })
    .returning({ offsetMs: sandboxClock.offsetMs });
  await db.execute(sql`select pg_notify(${SANDBOX_CLOCK_CHANNEL}, ${String(row!.offsetMs)})`);
  return row!.offsetMs;
}
