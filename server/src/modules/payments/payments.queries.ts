import type { Queryable } from '../../db/client';
import { reusableInsert } from '../../db/reusable-query';
import { paymentTokens, payments } from '../../db/schema';

export type PaymentRow = typeof payments.$inferSelect;
export type PaymentTokenRow = typeof paymentTokens.$inferSelect;

const paymentInsert = reusableInsert(payments);
const tokenInsert = reusableInsert(paymentTokens);

export function insertPayment(db: Queryable, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  return paymentInsert(db, values);
}

export function insertPaymentToken(db: Queryable, values: typeof paymentTokens.$inferInsert): Promise<PaymentTokenRow> {
  return tokenInsert(db, values);
}
