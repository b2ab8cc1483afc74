import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea, merchantIdColumn } from './merchants';

/**
 * Responses stored under an Idempotency-Key, scoped per merchant (docs/integrating.md#idempotency). Written in the same database
 * transaction as the effect. The body is text, not jsonb, so a replay is byte-identical. A request whose outcome
 * waits on a processor call (processor_requests) leaves the key here with no response yet: a retry meanwhile is
 * told the request is still running, and the outcome's recording fills in the answer. An expired key is deleted by
 * the expiry worker (through the index on expires_at), its answer and fingerprint with it.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    merchantId: merchantIdColumn(),
    key: text('key').notNull(),
    /**
     * The request's fingerprint, never a function of card data (http/idempotency.ts). Null: deleted because it was
     * taken over a card (migration 0007); the key alone then recognises its request until it expires.
     */
    requestHash: bytea('request_hash'),
    /** Null while the request's processor call is in flight. */
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.key] }), index('idempotency_keys_expires_at_idx').on(t.expiresAt)],
);
