import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Consumers' card attempts, counted against card testing (modules/card-testing): a row is written, with the
 * subject's and the address's windows claimed (card_attempt_windows), before the processor is asked, and counts as a
 * decline while `pending`; it is kept as `declined` when the processor declined, and deleted otherwise (approved,
 * failed, never asked). Rows older than the longest window are pruned as new ones come, so the client address is kept
 * no longer than the limit needs it. No card data.
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
    /** The 3-D Secure authentication the attempt waits on (a 202 answer): it stays pending until the authentication ends. */
    authenticationId: text('authentication_id'),
  },
  (t) => [
    index('card_attempts_subject_idx').on(t.subject, t.attemptedAt),
    index('card_attempts_address_idx').on(t.clientAddress, t.attemptedAt),
    index('card_attempts_attempted_at_idx').on(t.attemptedAt),
  ],
);

/**
 * The windows card attempts are counted in: one row per subject and per client address that made an attempt within
 * the longest window. A reservation claims the rows of its subject and of its address (inserting them when missing)
 * before it counts, and holds them until its transaction ends, so two attempts on one window are counted one after the
 * other, on any instance. Rows whose last attempt left every window are pruned with the attempts.
 */
export const cardAttemptWindows = pgTable(
  'card_attempt_windows',
  {
    /** `subject <link:… or session:…>` or `address <client address>`. */
    key: text('key').primaryKey(),
    /** When an attempt last claimed the window. */
    claimedAt: at('claimed_at').notNull(),
  },
  (t) => [index('card_attempt_windows_claimed_at_idx').on(t.claimedAt)],
);
