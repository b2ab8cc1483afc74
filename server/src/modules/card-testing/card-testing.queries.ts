import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { cardAttempts } from '../../db/schema';

/** Waits for, and holds until the transaction ends, the lock on the attempts of `key` (a subject or an address). */
export async function lockAttemptsOf(db: Queryable, key: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`card_attempts ${key}`}, 0))`);
}

/**
 * When the newest `limit` attempts of a subject or an address since `since` were made (newest first): those declined,
 * and those still waiting on the processor, which may be declines.
 */
export async function recentAttemptTimes(db: Queryable, of: { subject: string } | { clientAddress: string }, since: Date, limit: number): Promise<Date[]> {
  const which = 'subject' in of ? eq(cardAttempts.subject, of.subject) : eq(cardAttempts.clientAddress, of.clientAddress);
  const rows = await db
    .select({ attemptedAt: cardAttempts.attemptedAt })
    .from(cardAttempts)
    .where(and(which, gt(cardAttempts.attemptedAt, since)))
    .orderBy(desc(cardAttempts.attemptedAt))
    .limit(limit);
  return rows.map((row) => row.attemptedAt);
}

/** A pending attempt; its id settles it. */
export async function insertPendingAttempt(db: Queryable, attempt: { subject: string; clientAddress: string; attemptedAt: Date }): Promise<string> {
  const [row] = await db.insert(cardAttempts).values(attempt).returning({ id: cardAttempts.id });
  return row!.id;
}

/** The attempt was declined: it counts until it leaves the windows. */
export async function markAttemptDeclined(db: Queryable, id: string): Promise<void> {
  await db.update(cardAttempts).set({ state: 'declined' }).where(eq(cardAttempts.id, id));
}

/** The attempt was not a decline (approved, failed, refused before the processor, a replay): it does not count. */
export async function deleteAttempt(db: Queryable, id: string): Promise<void> {
  await db.delete(cardAttempts).where(eq(cardAttempts.id, id));
}

/** Attempts no window counts any more, with the client addresses they name. */
export async function pruneAttemptsBefore(db: Queryable, before: Date): Promise<void> {
  await db.delete(cardAttempts).where(lt(cardAttempts.attemptedAt, before));
}
