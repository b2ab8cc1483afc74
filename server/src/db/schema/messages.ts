import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { merchantIdColumn } from './merchants';
import { transactionIdColumn } from './transactions';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Payment links sent by SMS or e-mail (docs/integrating.md#links-by-sms-and-e-mail), and the message outbox of
 * production: the sandbox records each message here as `sent` (nothing leaves the service); production writes it
 * `queued` in the init's database transaction, and the message sender claims due rows with SKIP LOCKED, pushing
 * `next_attempt_at` a lease ahead before it sends, so one attempt is never made by two instances.
 */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantIdColumn(),
    transactionId: transactionIdColumn(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    recipient: text('recipient').notNull(),
    /** The SMS, or an e-mail's text part. */
    body: text('body').notNull(),
    /** An e-mail's subject (null for an SMS). */
    subject: text('subject'),
    /** An e-mail's HTML part: the text in the language's direction, the link as a link (null for an SMS). */
    html: text('html'),
    status: text('status', { enum: ['queued', 'sent', 'failed'] }).notNull(),
    /** Attempts claimed so far (queued messages only). */
    attemptCount: integer('attempt_count').notNull().default(0),
    /** When a queued message is next due (after a claim: when its lease ends). */
    nextAttemptAt: at('next_attempt_at'),
    /** Why the last attempt was not accepted (the provider's status or error text; never the recipient). */
    lastError: text('last_error'),
    /** An SMS's alphabet (`gsm7`, or `ucs2` for Hebrew, Arabic, Russian…) and how many segments it costs; null for an e-mail. */
    encoding: text('encoding', { enum: ['gsm7', 'ucs2'] }),
    segments: smallint('segments'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('messages_merchant_idx').on(t.merchantId, t.createdAt),
    index('messages_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    check('messages_queued_has_time', sql`${t.status} <> 'queued' or ${t.nextAttemptAt} is not null`),
    check('messages_email_has_subject', sql`(${t.channel} = 'email') = (${t.subject} is not null)`),
  ],
);
