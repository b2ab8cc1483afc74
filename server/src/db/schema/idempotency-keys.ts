import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea, merchantIdColumn } from './merchants';

/**
 * Responses stored under an Idempotency-Key, scoped per merchant (docs/integrating.md#idempotency). Written in the same database
 * transaction as the effect. The body is text, not jsonb, so a replay is byte-identical. A request whose outcome
 * waits on a processor call (processor_requests) leaves the key here with no response yet: a retry meanwhile is
 * told the request is still running, and the outcome's recording fills in the answer.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    merchantId: merchantIdColumn(),
    key: text('key').notNull(),
    requestHash: bytea('request_hash').notNull(),
    /** Null while the request's processor call is in flight. */
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.key] })],
);
