import { sql } from 'drizzle-orm';
import { index, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { merchantIdColumn } from './merchants';
import { transactionIdColumn } from './transactions';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A consumer's 3-D Secure authentication (modules/authentication): a card payment the processor answered
 * `requires_action` waits here, its transaction AwaitingAuthentication (15), until the consumer answers the bank
 * (`completing`, then `authenticated` once the processor decided), fails or cancels it, or AUTHENTICATION_TIMEOUT_S
 * passes (`failed`: a decline `authentication_failed`). The id is the bank page's URL secret. No card data.
 */
export const authentications = pgTable(
  'authentications',
  {
    id: text('id').primaryKey(),
    transactionId: transactionIdColumn(),
    merchantId: merchantIdColumn(),
    /** The widget's session that paid; null for a link's page. */
    sdkSessionId: uuid('sdk_session_id'),
    /** The payment waiting at the processor, and the request key of the sale or authorization that asked. */
    processorReference: text('processor_reference').notNull(),
    requestKey: text('request_key').notNull(),
    operation: text('operation', { enum: ['sale', 'authorize'] }).notNull(),
    /** The processor's own page for the bank's step; null when the service shows the sandbox's simulated bank. */
    actionUrl: text('action_url'),
    installments: smallint('installments').notNull().default(1),
    state: text('state', { enum: ['pending', 'completing', 'authenticated', 'failed'] })
      .notNull()
      .default('pending'),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull(),
    endedAt: at('ended_at'),
  },
  (t) => [
    index('authentications_open_idx')
      .on(t.expiresAt)
      .where(sql`${t.state} in ('pending', 'completing')`),
    // The bank's return and the processor's webhook name the payment by its request key (one authentication each).
    uniqueIndex('authentications_request_key_idx').on(t.requestKey),
  ],
);
