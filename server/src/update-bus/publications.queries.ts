import { asc, inArray, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { eventPublications } from '../db/schema';
import { EVENTS_CHANNEL, type EventNotice } from '../event-notice';

/** The published events leave the realtime outbox: one statement for a batch. */
export async function forgetPublished(db: Queryable, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db.delete(eventPublications).where(inArray(eventPublications.eventId, [...eventIds]));
}

/**
 * Outbox rows older than `graceMs` by the database's clock (their change committed, and its instance did not publish
 * them: it died, or the bus was down), oldest first, claimed for the caller's transaction so that instances sweeping
 * at once take different rows.
 */
export async function overduePublications(tx: Queryable, graceMs: number, limit: number): Promise<{ eventId: string; notice: string }[]> {
  return tx
    .select({ eventId: eventPublications.eventId, notice: eventPublications.notice })
    .from(eventPublications)
    .where(lt(eventPublications.createdAt, sql`now() - make_interval(secs => ${graceMs / 1000})`))
    .orderBy(asc(eventPublications.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** The postgres bus's publication: one NOTIFY per notice, in order, in one statement outside any change's transaction. */
export async function notifyEvents(db: Queryable, notices: readonly EventNotice[]): Promise<void> {
  if (notices.length === 0) return;
  const texts = JSON.stringify(notices.map((notice) => JSON.stringify(notice)));
  await db.execute(sql`select pg_notify(${EVENTS_CHANNEL}, n.value) from json_array_elements_text(${texts}::json) with ordinality as n(value, i)`);
}
