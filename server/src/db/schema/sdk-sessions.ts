import { index, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { apiCredentials, branches, bytea, merchantIdColumn } from './merchants';

/** A widget's session: started from a merchant page with a client ID, used by the card frame and Express. */
export const sdkSessions = pgTable(
  'sdk_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantIdColumn(),
    branchId: uuid('branch_id').references(() => branches.id),
    clientCredentialId: uuid('client_credential_id')
      .notNull()
      .references(() => apiCredentials.id),
    tokenHash: bytea('token_hash').notNull().unique(),
    methodType: text('method_type', { enum: ['manual_capture', 'tokenize', 'authorize'] }).notNull(),
    mode: text('mode', { enum: ['sandbox', 'production'] }).notNull(),
    /** The merchant page's origin the session was started from. */
    origin: text('origin').notNull(),
    /** The most payments the card widgets offer (1: none), already capped by the processor's capability. */
    maxInstallments: smallint('max_installments').notNull().default(1),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sdk_sessions_merchant_idx').on(t.merchantId)],
);
