import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { merchantIdColumn } from './merchants';
import { transactionEvents } from './transaction-events';
import { transactionIdColumn } from './transactions';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A merchant's webhook endpoints: where its events go, each with the types it enabled and its own signing secret. The
 * secret signs, so it is kept usable (as the merchant's callback secret is), never logged and answered only at creation.
 * A removed endpoint keeps its row (its deliveries name it) with `deleted_at` set, and is gone for the API.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantIdColumn(),
    url: text('url').notNull(),
    /** Event types, or `*` for every one. */
    enabledEvents: text('enabled_events').array().notNull(),
    description: text('description'),
    /** `whsec_` and base64: Standard Webhooks signs with its decoded bytes. */
    secret: text('secret').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    index('webhook_endpoints_merchant_idx')
      .on(t.merchantId)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/**
 * The merchant's event log (`GET /events`): one row per event a change sent, written by the change's event statement
 * (a transaction's update is `transaction.updated`, and may also be `transaction.approved`, `refund.updated`...). The
 * transaction is its event's payload (`transaction_event_id`); a refund event carries the refund as JSON text.
 * `position` orders the log (newest first) and pages it.
 */
export const merchantEvents = pgTable(
  'merchant_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    position: bigint('position', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    merchantId: merchantIdColumn(),
    type: text('type').notNull(),
    transactionId: transactionIdColumn(),
    transactionEventId: uuid('transaction_event_id')
      .notNull()
      .references(() => transactionEvents.id),
    /** The refund object as JSON text, on refund events. */
    refund: text('refund'),
    createdAt: at('created_at').notNull(),
  },
  // Four rows a lifecycle, each an entry in every index here: the log's pages read `merchant_events_log_idx`; nothing
  // looks a row up by its transaction event (the log joins to the event from its own row), and no event is ever
  // deleted, so the foreign key needs no index on this side either.
  (t) => [index('merchant_events_log_idx').on(t.merchantId, t.position)],
);
