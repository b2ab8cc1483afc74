import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, smallint, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { merchantIdColumn } from './merchants';
import { transactionEvents } from './transaction-events';
import { transactionIdColumn } from './transactions';
import { merchantEvents, webhookEndpoints } from './webhook-endpoints';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The callback outbox: one row per transaction update that has a callbackURL, written in the same database
 * transaction as the update. The dispatcher claims due rows with SKIP LOCKED and pushes `next_attempt_at` past
 * a lease before sending, so one attempt is never sent by two instances, and a crash only delays it. The same rows
 * carry the events sent to webhook endpoints (`endpoint_id` and `merchant_event_id` set): one per event and endpoint
 * that enabled its type, written by the same statement, sent and retried by the same dispatcher.
 */
export const callbackDeliveries = pgTable(
  'callback_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => transactionEvents.id),
    transactionId: transactionIdColumn(),
    merchantId: merchantIdColumn(),
    sequence: integer('sequence').notNull(),
    /** The webhook endpoint an event is sent to; null for the transaction's own callback. */
    endpointId: uuid('endpoint_id').references(() => webhookEndpoints.id),
    /** The event sent to `endpoint_id` (`webhook-id`); null for a callback. */
    merchantEventId: uuid('merchant_event_id').references(() => merchantEvents.id),
    url: text('url').notNull(),
    method: text('method', { enum: ['GET', 'POST'] }).notNull(),
    state: text('state', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    /** Position in the retry schedule; `redeliver` sets it back to 0. */
    schedulePosition: smallint('schedule_position').notNull().default(0),
    nextAttemptAt: at('next_attempt_at'),
    /**
     * Start of the window in which communication errors are retried (CALLBACK_GIVE_UP_AFTER_S): set by the first claim,
     * cleared by `redeliver`. Null also says that no attempt holds the delivery (the guard of `recordOutcomes`).
     */
    windowStartedAt: at('window_started_at'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('callback_deliveries_event_unique')
      .on(t.eventId)
      .where(sql`${t.endpointId} is null`),
    uniqueIndex('callback_deliveries_endpoint_event_unique')
      .on(t.merchantEventId, t.endpointId)
      .where(sql`${t.endpointId} is not null`),
    check('callback_deliveries_endpoint_has_event', sql`(${t.endpointId} is null) = (${t.merchantEventId} is null)`),
    index('callback_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'pending'`),
    index('callback_deliveries_transaction_idx').on(t.transactionId, t.sequence),
    check('callback_deliveries_pending_has_time', sql`${t.state} <> 'pending' or ${t.nextAttemptAt} is not null`),
  ],
);

/** Every attempt, recorded when it starts (so a crash mid-send still shows it) and completed with its outcome. */
export const callbackAttempts = pgTable(
  'callback_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => callbackDeliveries.id),
    attemptNo: integer('attempt_no').notNull(),
    startedAt: at('started_at').notNull(),
    httpStatus: smallint('http_status'),
    error: text('error'),
    durationMs: integer('duration_ms'),
    finishedAt: at('finished_at'),
  },
  (t) => [unique('callback_attempts_no_unique').on(t.deliveryId, t.attemptNo)],
);
