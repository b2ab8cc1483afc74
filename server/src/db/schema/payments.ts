import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { merchantIdColumn } from './merchants';
import { transactionIdColumn } from './transactions';

/** Money that moved: a capture against a hold, or a sale. The sum of a hold's succeeded captures is its captured_cents. */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: text('payment_id').notNull().unique(),
    transactionId: transactionIdColumn(),
    merchantId: merchantIdColumn(),
    kind: text('kind', { enum: ['capture', 'sale'] }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    status: text('status', { enum: ['succeeded', 'failed'] }).notNull(),
    confirmationNumber: text('confirmation_number'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('payments_transaction_idx').on(t.transactionId, t.createdAt),
    // GET /transactions?q=<a capture's confirmation number> (transaction-list.queries.ts).
    index('payments_confirmation_number_idx')
      .on(t.confirmationNumber)
      .where(sql`${t.confirmationNumber} is not null`),
    check('payments_amount_positive', sql`${t.amountCents} > 0`),
  ],
);
