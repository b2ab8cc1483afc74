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

/**
 * The realtime outbox: one row per event not yet published on the update bus, written by the event's own statement.
 * After the change commits, the instance that made it publishes the notice and deletes the row; the publication
 * sweep publishes whatever stayed behind (the instance died between its commit and its publication, or the bus was
 * down). Rows live for milliseconds, so the table stays small whatever the history.
 */
export const eventPublications = pgTable(
  'event_publications',
  {
    eventId: uuid('event_id').primaryKey(),
    merchantId: merchantIdColumn(),
    /** The EventNotice as JSON, as the bus carries it. */
    notice: text('notice').notNull(),
    /** The database's clock at the change (not the sandbox clock): the sweep takes rows older than a few seconds. */
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('event_publications_created_idx').on(t.createdAt)],
);
