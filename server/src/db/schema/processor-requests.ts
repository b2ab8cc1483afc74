import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { merchantIdColumn } from './merchants';
import { transactions } from './transactions';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Calls made on a method the service already holds: a worker can make them again with the same key. A refund is one:
 * it is never reversed, only asked again until the processor answers.
 */
export const REDOABLE_OPERATIONS = ['capture', 'commit_capture', 'reauthorize', 'release', 'refund'] as const;
/**
 * Payments that only the asking request can make (a card lives only in its memory; a token charge or a widget payment
 * creates its transaction with the outcome): a worker never makes them again, it reverses them at the processor.
 */
export const PAYMENT_OPERATIONS = ['sale', 'authorize', 'charge_token'] as const;

/**
 * The processor outbox: one row per call the service makes to the processor. It is written by the guarded write that
 * moves the transaction into the call's in-flight state (or takes the request's Idempotency-Key), in the same database
 * transaction; the processor is then called outside any lock with `request_key`, its idempotency key there; the
 * outcome is recorded by a second guarded write that moves the row from `in_flight` to `done`. Rows left in flight
 * (a crash, an unanswered call) are claimed again by lease (`lease_expires_at`, SKIP LOCKED): a redoable call is made
 * again with the same key; a payment is reversed by its key, so one whose outcome was never recorded never stays
 * charged. A request still unfinished after PROCESSOR_REQUEST_GIVE_UP_S is set aside as `needs_review`.
 */
export const processorRequests = pgTable(
  'processor_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Sent to the processor with every attempt of this call: its idempotency key there. */
    requestKey: text('request_key').notNull().unique(),
    /** Null for a payment that creates its transaction with its outcome (a widget payment, a token charge). */
    transactionId: uuid('transaction_id').references(() => transactions.id),
    merchantId: merchantIdColumn(),
    operation: text('operation', { enum: [...REDOABLE_OPERATIONS, ...PAYMENT_OPERATIONS] }).notNull(),
    /** The method at the processor; null for a card or wallet payment, which has none until it is approved. */
    processorReference: text('processor_reference'),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    /**
     * The acquirer's id of this call while its outcome is on its way (an Adyen modification's pspReference, answered
     * `received`): the webhook that tells the outcome names it (processor_notifications). Null otherwise.
     */
    pendingReference: text('pending_reference'),
    /** What recording the outcome needs besides the call (a commit's callbackURL, products, posData). */
    details: jsonb('details')
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** The HTTP request's Idempotency-Key (as stored in idempotency_keys), whose answer the outcome completes. */
    idempotencyKey: text('idempotency_key'),
    state: text('state', { enum: ['in_flight', 'done', 'needs_review'] })
      .notNull()
      .default('in_flight'),
    outcome: text('outcome', { enum: ['approved', 'declined', 'failed', 'released', 'reversed', 'requires_action'] }),
    /** The answer the outcome gave the merchant, so whoever records it (the request or the worker) can give it. */
    responseStatus: smallint('response_status'),
    responseBody: text('response_body'),
    attempts: integer('attempts').notNull().default(1),
    /** Why the latest attempt did not finish (the error's message), for the operator of a request set aside. */
    lastError: text('last_error'),
    leaseExpiresAt: at('lease_expires_at').notNull(),
    createdAt: at('created_at').notNull(),
    /** When an operator last put it back in flight from `needs_review` (`svc processor-requests retry`): its give-up time counts from then. */
    retriedAt: at('retried_at'),
    completedAt: at('completed_at'),
  },
  (t) => [
    index('processor_requests_in_flight_idx')
      .on(t.leaseExpiresAt)
      .where(sql`${t.state} = 'in_flight'`),
    index('processor_requests_transaction_idx').on(t.transactionId),
    uniqueIndex('processor_requests_pending_reference_idx')
      .on(t.pendingReference)
      .where(sql`${t.pendingReference} is not null`),
    index('processor_requests_needs_review_idx')
      .on(t.createdAt)
      .where(sql`${t.state} = 'needs_review'`),
    check('processor_requests_amount_positive', sql`${t.amountCents} > 0 or (${t.amountCents} = 0 and ${t.operation} = 'authorize')`),
    check(
      'processor_requests_redoable_has_method',
      sql`${t.operation} in ('sale', 'authorize', 'charge_token') or (${t.transactionId} is not null and ${t.processorReference} is not null)`,
    ),
    check('processor_requests_done_has_outcome', sql`${t.state} <> 'done' or (${t.outcome} is not null and ${t.completedAt} is not null)`),
  ],
);
