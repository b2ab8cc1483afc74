import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { merchants } from './merchants';
import { transactions } from './transactions';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The processor outbox: one row per call the service makes to the processor about a payment method it already holds
 * (a capture, a commit's capture, a re-authorization, a release). It is written by the guarded write that moves the transaction into the call's
 * in-flight state, in the same database transaction; the processor is then called outside any lock with
 * `request_key`, so a repeated call is idempotent at the processor; the outcome is recorded by a second guarded
 * write that moves the row from `in_flight` to `done`. Rows left in flight by a crash are claimed again by lease
 * (`lease_expires_at`, SKIP LOCKED) and finished with the same key.
 */
export const processorRequests = pgTable(
  'processor_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Sent to the processor with every attempt of this call: its idempotency key there. */
    requestKey: text('request_key').notNull().unique(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => transactions.id),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    operation: text('operation', { enum: ['capture', 'commit_capture', 'reauthorize', 'release'] }).notNull(),
    processorReference: text('processor_reference').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    /** What recording the outcome needs besides the call (a commit's callbackURL, products, posData). */
    details: jsonb('details')
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** The HTTP request's Idempotency-Key (as stored in idempotency_keys), whose answer the outcome completes. */
    idempotencyKey: text('idempotency_key'),
    state: text('state', { enum: ['in_flight', 'done'] })
      .notNull()
      .default('in_flight'),
    outcome: text('outcome', { enum: ['approved', 'declined', 'failed', 'released'] }),
    /** The answer the outcome gave the merchant, so whoever records it (the request or the worker) can give it. */
    responseStatus: smallint('response_status'),
    responseBody: text('response_body'),
    attempts: integer('attempts').notNull().default(1),
    leaseExpiresAt: at('lease_expires_at').notNull(),
    createdAt: at('created_at').notNull(),
    completedAt: at('completed_at'),
  },
  (t) => [
    index('processor_requests_in_flight_idx')
      .on(t.leaseExpiresAt)
      .where(sql`${t.state} = 'in_flight'`),
    index('processor_requests_transaction_idx').on(t.transactionId),
    check('processor_requests_amount_positive', sql`${t.amountCents} > 0`),
    check('processor_requests_done_has_outcome', sql`${t.state} <> 'done' or (${t.outcome} is not null and ${t.completedAt} is not null)`),
  ],
);
