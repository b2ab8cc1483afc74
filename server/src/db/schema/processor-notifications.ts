import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { processorRequests } from './processor-requests';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Outcomes an acquirer told by webhook (Adyen's CAPTURE, CANCELLATION, REFUND and their *_FAILED), kept once each
 * (the acquirer sends one again until it is acknowledged, and may send it twice anyway): applied to the processor
 * request whose call it answers (`processor_requests.pending_reference`), in the transaction that records that outcome.
 * One that arrives before its call's own answer was recorded waits here, unapplied, and is applied when that answer is.
 * No card data: references, the event, the amount.
 */
export const processorNotifications = pgTable(
  'processor_notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    processor: text('processor').notNull(),
    /** The acquirer's id of the call it answers (an Adyen modification's pspReference). */
    reference: text('reference').notNull(),
    /** The acquirer's event (`CAPTURE`, `REFUND_FAILED`, …). */
    event: text('event').notNull(),
    success: boolean('success').notNull(),
    /** The payment the call acted on (Adyen's originalReference). */
    paymentReference: text('payment_reference'),
    amountCents: bigint('amount_cents', { mode: 'number' }),
    currency: text('currency'),
    /** The acquirer's reason, when it refused. */
    reason: text('reason'),
    receivedAt: at('received_at').notNull(),
    appliedAt: at('applied_at'),
    processorRequestId: uuid('processor_request_id').references(() => processorRequests.id),
  },
  (t) => [
    uniqueIndex('processor_notifications_once_idx').on(t.processor, t.reference, t.event, t.success),
    index('processor_notifications_unapplied_idx')
      .on(t.processor, t.reference)
      .where(sql`${t.appliedAt} is null`),
  ],
);

/**
 * One row per acquirer reference a told outcome or a Pending answer named: the row both lock (an upsert) before matching
 * the one with the other, so whichever comes second sees what the first committed. A row lock, not an advisory lock:
 * nothing the service does depends on one database connection (db/no-connection-state.test.ts).
 */
export const acquirerReferenceLocks = pgTable(
  'acquirer_reference_locks',
  {
    processor: text('processor').notNull(),
    reference: text('reference').notNull(),
  },
  (t) => [primaryKey({ columns: [t.processor, t.reference] })],
);
