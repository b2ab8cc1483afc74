import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { processorRequests } from '../../db/schema';

export type ProcessorRequestRow = typeof processorRequests.$inferSelect;
export type ProcessorOperation = ProcessorRequestRow['operation'];
export type ProcessorOutcome = NonNullable<ProcessorRequestRow['outcome']>;

const r = processorRequests;

export async function insertProcessorRequest(db: Queryable, row: typeof processorRequests.$inferInsert): Promise<ProcessorRequestRow> {
  const [inserted] = await db.insert(r).values(row).returning();
  return inserted!;
}

/**
 * In flight → done, guarded: of everyone who got the processor's answer for this request (the request itself, a
 * worker that took it over when its lease ran out), exactly one records it. Null for the others.
 */
export async function markDone(db: Queryable, id: string, outcome: ProcessorOutcome, now: Date): Promise<ProcessorRequestRow | null> {
  const [row] = await db
    .update(r)
    .set({ state: 'done', outcome, completedAt: now })
    .where(and(eq(r.id, id), eq(r.state, 'in_flight')))
    .returning();
  return row ?? null;
}

export async function storeAnswer(db: Queryable, id: string, answer: { status: number; body: string }): Promise<void> {
  await db.update(r).set({ responseStatus: answer.status, responseBody: answer.body }).where(eq(r.id, id));
}

export async function findProcessorRequest(db: Queryable, id: string): Promise<ProcessorRequestRow | null> {
  const [row] = await db.select().from(r).where(eq(r.id, id)).limit(1);
  return row ?? null;
}

/**
 * Requests still in flight whose lease ran out (their process crashed, restarted, or lost the processor's answer),
 * oldest first, each claimed for another lease; rows another instance is claiming are skipped.
 */
export async function claimAbandoned(db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<ProcessorRequestRow[]> {
  const due = db
    .select({ id: r.id })
    .from(r)
    .where(and(eq(r.state, 'in_flight'), lte(r.leaseExpiresAt, now)))
    .orderBy(asc(r.leaseExpiresAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(r)
    .set({ leaseExpiresAt: leaseUntil, attempts: sql`${r.attempts} + 1` })
    .where(inArray(r.id, due))
    .returning();
}
