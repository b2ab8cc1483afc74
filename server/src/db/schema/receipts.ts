import { jsonb, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { merchantIdColumn } from './merchants';
import { transactions } from './transactions';

/** The POS receipt of a transaction (docs/integrating.md#receipts): one per transaction, the last save wins. */
export const receipts = pgTable('receipts', {
  transactionId: uuid('transaction_id')
    .primaryKey()
    .references(() => transactions.id),
  merchantId: merchantIdColumn(),
  receipt: jsonb('receipt').notNull(),
  savedAt: timestamp('saved_at', { withTimezone: true, mode: 'date' }).notNull(),
});
