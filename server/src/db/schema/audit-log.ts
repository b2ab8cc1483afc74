import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { apiCredentials, merchantIdColumn } from './merchants';

/**
 * Every change to a merchant's credentials and settings: who (the credential that made it, or the operator's CLI),
 * what (an action and its target), when. Never a secret: a credential appears by its id and hint only.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    /** Increasing: the newest-first order and the page cursor. */
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    merchantId: merchantIdColumn(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** `merchant_key` or `branch_key` for a call through the API, `operator` for the CLI. */
    actorKind: text('actor_kind').notNull(),
    actorCredentialId: uuid('actor_credential_id').references(() => apiCredentials.id),
    action: text('action').notNull(),
    targetCredentialId: uuid('target_credential_id').references(() => apiCredentials.id),
    /** What else the entry needs (an origin, the overlap, the payment methods): never a secret. */
    details: jsonb('details').notNull().default({}),
  },
  (t) => [index('audit_log_merchant_idx').on(t.merchantId, t.id)],
);
