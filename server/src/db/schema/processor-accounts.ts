import { check, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { merchants } from './merchants';

/**
 * A merchant's own processor account (docs/operating.md#a-merchants-own-account): its payments go there instead of
 * the default account. The credentials are encrypted with PROCESSOR_SECRETS_KEY (AES-256-GCM, bound to the merchant);
 * `hint` is what may be shown of them. API base URLs are never stored: they are the operator's.
 */
export const processorAccounts = pgTable(
  'processor_accounts',
  {
    merchantId: uuid('merchant_id')
      .primaryKey()
      .references(() => merchants.id),
    kind: text('kind', { enum: ['stripe', 'adyen'] }).notNull(),
    hint: text('hint').notNull(),
    sealedCredentials: text('sealed_credentials').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [check('processor_accounts_kind', sql`${t.kind} in ('stripe', 'adyen')`)],
);
