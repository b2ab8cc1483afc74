import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { receipts } from '../../db/schema';

/** Saves the receipt of a transaction; a later save replaces the earlier one. */
export async function upsertReceipt(
  db: Queryable,
  values: { transactionId: string; merchantId: string; receipt: Record<string, unknown>; savedAt: Date },
): Promise<void> {
  await db
    .insert(receipts)
    .values(values)
    .onConflictDoUpdate({ target: receipts.transactionId, set: { receipt: values.receipt, savedAt: values.savedAt } });
}

export async function findReceipt(db: Queryable, transactionId: string) {
  const [row] = await db
    .select({ receipt: receipts.receipt, savedAt: receipts.savedAt })
    .from(receipts)
    .where(eq(receipts.transactionId, transactionId))
    .limit(1);
  return row ?? null;
}
