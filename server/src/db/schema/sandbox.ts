import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { merchantIdColumn } from './merchants';
import { transactionIdColumn } from './transactions';

/** The sandbox test clock: one row, an offset from real time shared by every instance. */
export const sandboxClock = pgTable(
  'sandbox_clock',
  {
    id: smallint('id').primaryKey().default(1),
    offsetMs: bigint('offset_ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('sandbox_clock_single_row', sql`${t.id} = 1`), check('sandbox_clock_forward_only', sql`${t.offsetMs} >= 0`)],
);

/** Payment links "sent" by SMS or e-mail (docs/integrating.md#links-by-sms-and-e-mail). In the sandbox they are only recorded here. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantIdColumn(),
    transactionId: transactionIdColumn(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    recipient: text('recipient').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: ['sent', 'failed'] }).notNull(),
    /** An SMS's alphabet (`gsm7`, or `ucs2` for Hebrew, Arabic, Russian…) and how many segments it costs; null for an e-mail. */
    encoding: text('encoding', { enum: ['gsm7', 'ucs2'] }),
    segments: smallint('segments'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('messages_merchant_idx').on(t.merchantId, t.createdAt)],
);
