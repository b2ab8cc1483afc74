import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/client';
import { reusableInsert } from '../../db/reusable-query';
import { paymentTokens, payments } from '../../db/schema';

export type PaymentRow = typeof payments.$inferSelect;
export type PaymentTokenRow = typeof paymentTokens.$inferSelect;

const paymentInsert = reusableInsert(payments);
const tokenInsert = reusableInsert(paymentTokens);

/**
 * A payment row made in memory, its id included, for a change that inserts it with its event (recordChange's `inserting`)
 * instead of in a statement of its own.
 */
export function newPaymentRow(values: Omit<PaymentRow, 'id'>): PaymentRow {
  return { id: randomUUID(), ...values };
}

/** A token row made in memory, its id included (see newPaymentRow). */
export function newPaymentTokenRow(values: Omit<PaymentTokenRow, 'id'>): PaymentTokenRow {
  return { id: randomUUID(), ...values };
}

export function insertPayment(db: Queryable, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  return paymentInsert(db, values);
}

export function insertPaymentToken(db: Queryable, values: typeof paymentTokens.$inferInsert): Promise<PaymentTokenRow> {
  return tokenInsert(db, values);
}
