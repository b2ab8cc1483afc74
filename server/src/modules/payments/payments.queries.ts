import type { Queryable } from '../../db/client';
import { paymentTokens, payments } from '../../db/schema';

export type PaymentRow = typeof payments.$inferSelect;
export type PaymentTokenRow = typeof paymentTokens.$inferSelect;

export async function insertPayment(db: Queryable, values: typeof payments.$inferInsert) {
  const [row] = await db.insert(payments).values(values).returning();
  return row!;
}

export async function insertPaymentToken(db: Queryable, values: typeof paymentTokens.$inferInsert) {
  const [row] = await db.insert(paymentTokens).values(values).returning();
  return row!;
}
