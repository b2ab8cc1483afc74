import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { serviceSettings } from '../../db/schema';

/** At every start: the public base URL this service answers on, for the tools that share its database (the CLI). */
export async function recordPublicBaseUrl(db: Queryable, publicBaseUrl: string, now: Date): Promise<void> {
  await db
    .insert(serviceSettings)
    .values({ id: 1, publicBaseUrl, updatedAt: now })
    .onConflictDoUpdate({ target: serviceSettings.id, set: { publicBaseUrl, updatedAt: now } });
}

/** The public base URL the service last started with on this database; null when none has started on it. */
export async function recordedPublicBaseUrl(db: Queryable): Promise<string | null> {
  const [row] = await db.select({ publicBaseUrl: serviceSettings.publicBaseUrl }).from(serviceSettings).where(eq(serviceSettings.id, 1));
  return row?.publicBaseUrl ?? null;
}
