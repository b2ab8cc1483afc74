import { sql } from 'drizzle-orm';
import { check, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What the running service tells the tools that share its database: one row, written at every start. The CLI builds a
 * new merchant's sticker URL on `public_base_url` when its own environment names none, so the link it prints is the
 * one the service answers on.
 */
export const serviceSettings = pgTable(
  'service_settings',
  {
    id: smallint('id').primaryKey().default(1),
    publicBaseUrl: text('public_base_url').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [check('service_settings_single_row', sql`${t.id} = 1`)],
);
