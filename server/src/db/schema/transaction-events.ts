import { index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { merchantIdColumn } from './merchants';
import { transactionIdColumn } from './transactions';

/**
 * One row per state change, written in the same database transaction as the change, carrying the transaction
 * object as it was then. Callbacks and the websocket consume these; `id` is the event id (`webhook-id`).
 */
export const transactionEvents = pgTable(
  'transaction_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: transactionIdColumn(),
    merchantId: merchantIdColumn(),
    sequence: integer('sequence').notNull(),
    type: text('type', { enum: ['transaction.created', 'transaction.updated'] }).notNull(),
    /** The transaction object as JSON text: the exact bytes callbacks send and sign (jsonb would reorder keys). */
    payload: text('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [unique('transaction_events_sequence_unique').on(t.transactionId, t.sequence), index('transaction_events_merchant_idx').on(t.merchantId, t.createdAt)],
);
