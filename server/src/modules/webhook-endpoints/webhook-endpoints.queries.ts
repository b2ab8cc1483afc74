import { randomUUID } from 'node:crypto';
import { and, asc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client';
import { merchants, webhookEndpoints } from '../../db/schema';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/** The endpoint a merchant's key may see: its own, not removed. */
const own = (merchantId: string, endpointId: string) =>
  and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId), isNull(webhookEndpoints.deletedAt));

/**
 * Claims the merchant's endpoints until the transaction ends (its merchant row, `for no key update`): a second
 * create waits here for the first to commit, and its count then sees the first's endpoint. Payments' inserts, which
 * take only a key-share lock on the merchant, never wait for it.
 */
export async function claimMerchantEndpoints(tx: Tx, merchantId: string): Promise<void> {
  await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for('no key update');
}

/**
 * The endpoint, added only while the merchant has fewer than `max` (removed ones not counted): one guarded statement,
 * `insert … select … where (select count(*) …) < max`. Null when it is refused. Run after `claimMerchantEndpoints`
 * in the same transaction: a count alone does not see another create that has not committed.
 */
export async function insertWebhookEndpointBelow(
  tx: Tx,
  row: Omit<typeof webhookEndpoints.$inferInsert, 'id' | 'disabled' | 'deletedAt'>,
  max: number,
): Promise<WebhookEndpointRow | null> {
  const values: Record<string, unknown> = { id: randomUUID(), disabled: false, deletedAt: null, description: null, ...row };
  const columns = Object.entries(getTableColumns(webhookEndpoints)).map(
    ([key, column]) => sql`${sql.param(values[key] ?? null, column)}::${sql.raw(column.getSQLType())}`,
  );
  const [inserted] = await tx
    .insert(webhookEndpoints)
    .select(
      sql`select ${sql.join(columns, sql`, `)} where (select count(*) from ${webhookEndpoints} where ${and(
        eq(webhookEndpoints.merchantId, row.merchantId),
        isNull(webhookEndpoints.deletedAt),
      )}) < ${max}`,
    )
    .returning();
  return inserted ?? null;
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
