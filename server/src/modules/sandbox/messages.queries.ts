import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Principal } from '../../auth/principal';
import type { Queryable } from '../../db/client';
import { messages, transactions } from '../../db/schema';
import { transactionScope } from '../../db/transaction-scope';

export type NewMessageRow = typeof messages.$inferInsert;

export async function insertMessage(db: Queryable, values: NewMessageRow): Promise<void> {
  await db.insert(messages).values(values);
}

/**
 * The messages of the transactions the caller may see (a branch key: its branch's only), newest first. The sandbox
 * outbox records each message as sent; none is ever queued here (that is production's outbox).
 */
export async function listMessages(db: Queryable, principal: Principal, limit = 100) {
  return db
    .select({
      id: messages.id,
      channel: messages.channel,
      recipient: messages.recipient,
      body: messages.body,
      subject: messages.subject,
      html: messages.html,
      status: sql<'sent' | 'failed'>`${messages.status}`,
      encoding: messages.encoding,
      segments: messages.segments,
      createdAt: messages.createdAt,
      transactionNumber: transactions.transactionNumber,
    })
    .from(messages)
    .innerJoin(transactions, eq(transactions.id, messages.transactionId))
    .where(and(eq(messages.merchantId, principal.merchantId), ne(messages.status, 'queued'), transactionScope(principal)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
}
