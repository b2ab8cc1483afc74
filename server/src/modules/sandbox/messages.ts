import { centsToMajor, type Transaction } from '@svc/protocol';
import { and, desc, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { messages, transactions } from '../../db/schema';
import type { Principal } from '../../http/authenticate';
import { transactionScope } from '../transactions/transaction-scope';
import type { TransactionRow } from '../transactions/transactions.queries';

/**
 * The message outbox of CONTRACT §10: init with `phone` or `email` "sends" the payment link. The sandbox only
 * records the message (readable at GET /sandbox/messages); a production deployment plugs an SMS and e-mail
 * provider into the same rows.
 */
export async function queueLinkMessages(db: Queryable, { row, transaction, now }: { row: TransactionRow; transaction: Transaction; now: Date }) {
  const amount = transaction.amount === null ? '' : ` of ${centsToMajor(row.amountCents ?? 0).toFixed(2)} ${row.currency}`;
  const body = `${transaction.businessName} asks you for a payment${amount}. Pay here: ${transaction.transactionPage.qrURL}`;
  const queued: (typeof messages.$inferInsert)[] = [];
  if (row.phone) queued.push({ merchantId: row.merchantId, transactionId: row.id, channel: 'sms', recipient: row.phone, body, status: 'sent', createdAt: now });
  if (row.email) queued.push({ merchantId: row.merchantId, transactionId: row.id, channel: 'email', recipient: row.email, body, status: 'sent', createdAt: now });
  if (queued.length > 0) await db.insert(messages).values(queued);
}

/** The messages of the transactions the caller may see (a branch key: its branch's only), newest first. */
export async function listMessages(db: Queryable, principal: Principal, limit = 100) {
  return db
    .select({
      id: messages.id,
      channel: messages.channel,
      recipient: messages.recipient,
      body: messages.body,
      status: messages.status,
      createdAt: messages.createdAt,
      transactionNumber: transactions.transactionNumber,
    })
    .from(messages)
    .innerJoin(transactions, eq(transactions.id, messages.transactionId))
    .where(and(eq(messages.merchantId, principal.merchantId), transactionScope(principal)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
}
