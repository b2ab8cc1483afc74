import { count, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { callbackDeliveries, processorRequests } from '../db/schema';

/** Pending callback deliveries: a count over the partial index of pending rows (callback_deliveries_due_idx). */
export async function countCallbackBacklog(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(callbackDeliveries).where(eq(callbackDeliveries.state, 'pending'));
  return row?.n ?? 0;
}

/** Unfinished processor requests by state: two counts over the partial indexes of in-flight and set-aside rows. */
export async function countUnfinishedProcessorRequests(db: Database): Promise<Record<'in_flight' | 'needs_review', number>> {
  const [inFlight] = await db.select({ n: count() }).from(processorRequests).where(eq(processorRequests.state, 'in_flight'));
  const [needsReview] = await db.select({ n: count() }).from(processorRequests).where(eq(processorRequests.state, 'needs_review'));
  return { in_flight: inFlight?.n ?? 0, needs_review: needsReview?.n ?? 0 };
}

/** This instance's pool connections by state, from pg_stat_activity by the pool's application_name. */
export async function countPoolConnections(db: Database, applicationName: string): Promise<Record<string, number>> {
  const rows = await db.execute<{ state: string | null; n: number }>(
    sql`select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity where application_name = ${applicationName} group by 1`,
  );
  return Object.fromEntries([...rows].map((row) => [row.state ?? 'unknown', row.n]));
}
