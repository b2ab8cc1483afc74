import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/client';
import { reusableInsert, rowParams } from '../../db/reusable-query';
import { rider, type Rider } from '../../db/rider';
import { paymentTokens, payments } from '../../db/schema';

export type PaymentRow = typeof payments.$inferSelect;
export type PaymentTokenRow = typeof paymentTokens.$inferSelect;

const paymentInsert = reusableInsert(payments);
const tokenInsert = reusableInsert(paymentTokens);

/**
 * A payment row made in memory, its id included, for a change that inserts it with its event (`paymentRider`) instead
 * of in a statement of its own.
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

const paymentWrite = rider('payment', rowParams(payments), (db, slots) => db.insert(payments).values(slots).getSQL());
const tokenWrite = rider('token', rowParams(paymentTokens), (db, slots) => db.insert(paymentTokens).values(slots).getSQL());

/** The insert of a payment made in memory (`newPaymentRow`), riding in its change's event statement (recordChange's `riders`). */
export function paymentRider(payment: PaymentRow): Rider {
  return paymentWrite(payment);
}

/** The insert of a token made in memory (`newPaymentTokenRow`), riding in its change's event statement. */
export function tokenRider(token: PaymentTokenRow): Rider {
  return tokenWrite(token);
}
