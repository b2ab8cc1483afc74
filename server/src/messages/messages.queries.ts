import { and, eq, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../db/client';
import { messages } from '../db/schema';
import type { MessageChannel, OutboundMessage } from './message-outbox';
import { smsShape } from './sms-encoding';

/** Wakes the message senders of every instance: a message was queued (notified on commit). */
export const MESSAGES_WAKE_CHANNEL = 'svc_messages';

/** A message queued in the sending change's transaction, due now; every instance's sender is woken when it commits. */
export async function queueMessage(db: Queryable, message: OutboundMessage, now: Date): Promise<void> {
  const shape = message.channel === 'sms' ? smsShape(message.body) : null;
  await db
    .insert(messages)
    .values({ ...message, status: 'queued', encoding: shape?.encoding ?? null, segments: shape?.segments ?? null, nextAttemptAt: now, createdAt: now });
  await db.execute(sql`select pg_notify(${MESSAGES_WAKE_CHANNEL}, '')`);
}

export interface ClaimedMessage {
  id: string;
  transactionId: string;
  channel: MessageChannel;
  recipient: string;
  body: string;
  subject: string | null;
  html: string | null;
  /** This attempt's number (1 for the first). */
  attemptNo: number;
}

/**
 * Claims up to `limit` due queued messages: locks them (SKIP LOCKED, so instances never take the same one), counts the
 * attempt and moves its next time a lease ahead, before anything is sent. A crash after this only delays the message
 * until the lease ends; it is then attempted again.
 */
export async function claimDueMessages(db: Database, now: Date, limit: number, leaseMs: number): Promise<ClaimedMessage[]> {
  const rows = await db.execute<{
    id: string;
    transaction_id: string;
    channel: MessageChannel;
    recipient: string;
    body: string;
    subject: string | null;
    html: string | null;
    attempt_count: number;
  }>(sql`
    with due as (
      select id from ${messages}
      where status = 'queued' and next_attempt_at <= ${now.toISOString()}::timestamptz
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    )
    update ${messages} m
    set attempt_count = m.attempt_count + 1, next_attempt_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz
    from due where m.id = due.id
    returning m.id, m.transaction_id, m.channel, m.recipient, m.body, m.subject, m.html, m.attempt_count`);
  return rows.map((r) => ({
    id: r.id,
    transactionId: r.transaction_id,
    channel: r.channel,
    recipient: r.recipient,
    body: r.body,
    subject: r.subject,
    html: r.html,
    attemptNo: r.attempt_count,
  }));
}

export type MessageOutcome = { status: 'sent' } | { status: 'failed'; error: string } | { status: 'queued'; error: string; nextAttemptAt: Date };

/**
 * Writes an attempt's outcome, guarded: only while the message is still queued under this attempt (a late outcome,
 * after the lease ended and another attempt took the message, writes nothing). Answers whether it was written.
 */
export async function recordMessageOutcome(db: Queryable, claimed: Pick<ClaimedMessage, 'id' | 'attemptNo'>, outcome: MessageOutcome): Promise<boolean> {
  const written = await db
    .update(messages)
    .set({
      status: outcome.status,
      nextAttemptAt: outcome.status === 'queued' ? outcome.nextAttemptAt : null,
      lastError: outcome.status === 'sent' ? null : outcome.error,
    })
    .where(and(eq(messages.id, claimed.id), eq(messages.status, 'queued'), eq(messages.attemptCount, claimed.attemptNo)))
    .returning({ id: messages.id });
  return written.length > 0;
}
