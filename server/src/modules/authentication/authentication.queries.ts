import { and, eq, gt, inArray, lte, or } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { authentications } from '../../db/schema';

export type AuthenticationRow = typeof authentications.$inferSelect;

export async function insertAuthentication(db: Queryable, values: typeof authentications.$inferInsert): Promise<AuthenticationRow> {
  const [row] = await db.insert(authentications).values(values).returning();
  return row!;
}

export async function findAuthentication(db: Queryable, id: string): Promise<AuthenticationRow | null> {
  const [row] = await db.select().from(authentications).where(eq(authentications.id, id)).limit(1);
  return row ?? null;
}

/** The authentication of the payment made with `requestKey` (the bank's return and a processor's webhook name it so). */
export async function findAuthenticationByRequestKey(db: Queryable, requestKey: string): Promise<AuthenticationRow | null> {
  const [row] = await db.select().from(authentications).where(eq(authentications.requestKey, requestKey)).limit(1);
  return row ?? null;
}

/**
 * The consumer answered the bank: the authentication moves from pending to completing, guarded, so one completion
 * alone asks the processor (a second click, a second tab, the expiry find it taken). Null when it was not pending or
 * its time ran out.
 */
export async function claimForCompletion(db: Queryable, id: string, now: Date): Promise<AuthenticationRow | null> {
  const [row] = await db
    .update(authentications)
    .set({ state: 'completing' })
    .where(and(eq(authentications.id, id), eq(authentications.state, 'pending'), gt(authentications.expiresAt, now)))
    .returning();
  return row ?? null;
}

/**
 * The authentication ends (`authenticated` or `failed`), guarded on the state it was read in: of a completion and a
 * cancel or an expiry, the first to commit wins and the other finds nothing to end.
 */
export async function endAuthenticationRow(
  db: Queryable,
  id: string,
  from: readonly AuthenticationRow['state'][],
  to: 'authenticated' | 'failed',
  now: Date,
): Promise<AuthenticationRow | null> {
  const [row] = await db
    .update(authentications)
    .set({ state: to, endedAt: now })
    .where(and(eq(authentications.id, id), inArray(authentications.state, [...from])))
    .returning();
  return row ?? null;
}

/**
 * Authentications whose time is up at `now`: pending past their expiry, or completing a processor call that a stopped
 * process never recorded (`staleBefore`).
 */
export async function findExpiredAuthentications(db: Queryable, now: Date, staleBefore: Date, limit: number): Promise<AuthenticationRow[]> {
  return db
    .select()
    .from(authentications)
    .where(
      or(
        and(eq(authentications.state, 'pending'), lte(authentications.expiresAt, now)),
        and(eq(authentications.state, 'completing'), lte(authentications.expiresAt, staleBefore)),
      ),
    )
    .limit(limit);
}
