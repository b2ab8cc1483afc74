import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { merchants } from '../../db/schema';

/** The payment methods a merchant's widgets offer (null for an unknown merchant); `lock` holds the row for a change. */
export async function findPaymentMethods(db: Queryable, merchantId: string, lock = false): Promise<string[] | null> {
  const query = db.select({ paymentMethods: merchants.paymentMethods }).from(merchants).where(eq(merchants.id, merchantId));
  const [row] = lock ? await query.for('update') : await query;
  return row?.paymentMethods ?? null;
}

export async function updatePaymentMethods(db: Queryable, merchantId: string, paymentMethods: string[]): Promise<void> {
  await db.update(merchants).set({ paymentMethods }).where(eq(merchants.id, merchantId));
}
