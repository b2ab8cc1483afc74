import { REFUND_REASONS, REFUND_STATES } from '@svc/protocol';
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { merchantIdColumn } from './merchants';
import { processorRequests } from './processor-requests';
import { transactionIdColumn } from './transactions';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Money given back to the consumer, or asked back (docs/integrating.md#refunds). A refund is inserted `pending` with
 * its processor request, in the database transaction of the guarded write that reserved its amount on the
 * transaction (`refunds_in_flight_cents`); its outcome moves it once to `succeeded` or `failed` (with the processor's
 * code). A pending refund is never reversed: the worker asks the processor again with the request's key.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The public id, `rf_…`. */
    refundId: text('refund_id').notNull().unique(),
    transactionId: transactionIdColumn(),
    merchantId: merchantIdColumn(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: REFUND_STATES }).notNull(),
    reason: text('reason', { enum: REFUND_REASONS }).notNull(),
    /** The merchant's note; never shown to the consumer. */
    description: text('description'),
    failureCode: text('failure_code'),
    /** The processor's id of the refund (a Stripe `re_…`), once it gave the money back; null where it gives none. */
    processorReference: text('processor_reference'),
    /** The processor call that gives it back: its key is sent on every attempt. */
    processorRequestId: uuid('processor_request_id')
      .notNull()
      .unique()
      .references(() => processorRequests.id),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('refunds_transaction_idx').on(t.transactionId, t.createdAt),
    check('refunds_amount_positive', sql`${t.amountCents} > 0`),
    check('refunds_status_known', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
    check('refunds_failure_has_code', sql`(${t.status} = 'failed') = (${t.failureCode} is not null)`),
  ],
);
