import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { branches, merchantIdColumn } from './merchants';
import { transactionIdColumn } from './transactions';

/**
 * Tokens the merchant holds: an authorization's (captures, voids and re-authorizes it) or a tokenized payment
 * method's (charges new sales). Card numbers are never stored: the processor reference stands for the method.
 */
export const paymentTokens = pgTable(
  'payment_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    token: text('token').notNull().unique(),
    type: text('type', { enum: ['authorization', 'token'] }).notNull(),
    merchantId: merchantIdColumn(),
    branchId: uuid('branch_id').references(() => branches.id),
    transactionId: transactionIdColumn(),
    processor: text('processor').notNull(),
    processorReference: text('processor_reference').notNull(),
    paymentMethod: text('payment_method').notNull(),
    lastFourDigits: text('last_four_digits'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('payment_tokens_transaction_idx').on(t.transactionId)],
);
