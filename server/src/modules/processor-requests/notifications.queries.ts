import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { acquirerReferenceLocks, processorNotifications, processorRequests } from '../../db/schema';
import type { ProcessorRequestRow } from './processor-requests.queries';

export type ProcessorNotificationRow = typeof processorNotifications.$inferSelect;
export type NewProcessorNotification = Omit<typeof processorNotifications.$inferInsert, 'id' | 'appliedAt' | 'processorRequestId'>;

/**
 * Serializes (a row lock on acquirer_reference_locks), for one of the acquirer's references, everyone who may match a told outcome with its request: the
 * webhook that keeps the outcome, and the recording of the call's `Pending` answer that names the reference. Whichever
 * comes second sees what the first committed, so an outcome that arrives before its call's answer was recorded is
 * applied when that answer is, and never missed. Held until the transaction ends.
 */
export async function lockAcquirerReference(db: Queryable, processor: string, reference: string): Promise<void> {
  // The insert, or the conflict's no-op update, holds the row's lock until the transaction ends.
  await db
    .insert(acquirerReferenceLocks)
    .values({ processor, reference })
    .onConflictDoUpdate({ target: [acquirerReferenceLocks.processor, acquirerReferenceLocks.reference], set: { processor } });
}

/** Keeps a told outcome once: the row, whether it was just kept or had been (a webhook sent again). */
export async function keepNotification(db: Queryable, row: NewProcessorNotification): Promise<ProcessorNotificationRow> {
  const [inserted] = await db.insert(processorNotifications).values(row).onConflictDoNothing().returning();
  if (inserted) return inserted;
  const [kept] = await db
    .select()
    .from(processorNotifications)
    .where(
      and(
        eq(processorNotifications.processor, row.processor),
        eq(processorNotifications.reference, row.reference),
        eq(processorNotifications.event, row.event),
        eq(processorNotifications.success, row.success),
      ),
    )
    .limit(1);
  if (!kept) throw new Error(`processor notification ${row.event} ${row.reference} was neither kept nor found`);
  return kept;
}

/** The first outcome told for `reference` and not applied yet (one that came before its call's answer was recorded). */
export async function findUnappliedNotification(db: Queryable, processor: string, reference: string): Promise<ProcessorNotificationRow | null> {
  const [row] = await db
    .select()
    .from(processorNotifications)
    .where(and(eq(processorNotifications.processor, processor), eq(processorNotifications.reference, reference), isNull(processorNotifications.appliedAt)))
    .orderBy(asc(processorNotifications.receivedAt))
    .limit(1);
  return row ?? null;
}

export async function markNotificationApplied(db: Queryable, id: string, processorRequestId: string, now: Date): Promise<void> {
  await db.update(processorNotifications).set({ appliedAt: now, processorRequestId }).where(eq(processorNotifications.id, id));
}

/** The request whose call the acquirer knows as `reference` (its Pending answer was recorded), locked; null when none was. */
export async function lockRequestByPendingReference(db: Queryable, reference: string): Promise<ProcessorRequestRow | null> {
  const [row] = await db.select().from(processorRequests).where(eq(processorRequests.pendingReference, reference)).limit(1).for('update');
  return row ?? null;
}

/** The merchant of the request waiting under `reference`, or null when none does (no lock taken). */
export async function merchantOfPendingReference(db: Queryable, reference: string): Promise<string | null> {
  const [row] = await db
    .select({ merchantId: processorRequests.merchantId })
    .from(processorRequests)
    .where(eq(processorRequests.pendingReference, reference))
    .limit(1);
  return row?.merchantId ?? null;
}

/**
 * The call's outcome is on its way under `reference`: kept on the request, which stays in flight (guarded: null when
 * it is not, another recorded it first).
 */
export async function markPending(db: Queryable, id: string, reference: string): Promise<{ id: string } | null> {
  const [row] = await db
    .update(processorRequests)
    .set({ pendingReference: reference, lastError: null })
    .where(and(eq(processorRequests.id, id), sql`${processorRequests.state} in ('in_flight', 'needs_review')`))
    .returning({ id: processorRequests.id });
  return row ?? null;
}
