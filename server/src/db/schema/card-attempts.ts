import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Consumers' card attempts, counted against card testing (modules/card-testing): a row is written, under the
 * subject's and the address's locks, before the processor is asked, and counts as a decline while `pending`; it is
 * kept as `declined` when the processor declined, and deleted otherwise (approved, failed, never asked). Rows older
 * than the longest window are pruned as new ones come, so the client address is kept no longer than the limit needs
 * it. No card data.
 */
export const cardAttempts = pgTable(
  'card_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** What was paid: `link:<linkId>` or `session:<sdk session id>`. */
    subject: text('subject').notNull(),
    /** The client address the attempt came from (http/client-address.ts). */
    clientAddress: text('client_address').notNull(),
    state: text('state', { enum: ['pending', 'declined'] })
      .notNull()
      .default('pending'),
    attemptedAt: at('attempted_at').notNull(),
  },
  (t) => [
    index('card_attempts_subject_idx').on(t.subject, t.attemptedAt),
    index('card_attempts_address_idx').on(t.clientAddress, t.attemptedAt),
    index('card_attempts_attempted_at_idx').on(t.attemptedAt),
  ],
);
