import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { webhookEndpoints } from '../../db/schema';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/** The endpoint a merchant's key may see: its own, not removed. */
const own = (merchantId: string, endpointId: string) =>
  and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId), isNull(webhookEndpoints.deletedAt));

export async function insertWebhookEndpoint(db: Queryable, row: typeof webhookEndpoints.$inferInsert): Promise<WebhookEndpointRow> {
  const [inserted] = await db.insert(webhookEndpoints).values(row).returning();
  return inserted!;
}

/** How many endpoints the merchant has (removed ones not counted). */
export async function countWebhookEndpoints(db: Queryable, merchantId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, merchantId), isNull(webhookEndpoints.deletedAt)));
  return row?.n ?? 0;
}

/** The merchant's endpoints, oldest first. */
export function listWebhookEndpoints(db: Queryable, merchantId: string): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, merchantId), isNull(webhookEndpoints.deletedAt)))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

export async function findWebhookEndpoint(db: Queryable, merchantId: string, endpointId: string): Promise<WebhookEndpointRow | null> {
  const [row] = await db.select().from(webhookEndpoints).where(own(merchantId, endpointId)).limit(1);
  return row ?? null;
}

/** Changes the fields given of the merchant's endpoint; null when it has no such endpoint. */
export async function updateWebhookEndpoint(
  db: Queryable,
  merchantId: string,
  endpointId: string,
  change: Partial<Pick<WebhookEndpointRow, 'url' | 'enabledEvents' | 'description' | 'disabled'>> & { updatedAt: Date },
): Promise<WebhookEndpointRow | null> {
  const [row] = await db.update(webhookEndpoints).set(change).where(own(merchantId, endpointId)).returning();
  return row ?? null;
}

/** Removes the merchant's endpoint (its row stays for its deliveries' log); false when it has no such endpoint. */
export async function removeWebhookEndpoint(db: Queryable, merchantId: string, endpointId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(webhookEndpoints)
    .set({ deletedAt: at, updatedAt: at })
    .where(own(merchantId, endpointId))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}
