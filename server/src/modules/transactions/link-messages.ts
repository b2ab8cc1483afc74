import { centsToMajor, type Transaction } from '@svc/protocol';
import type { Queryable } from '../../db/client';
import type { MessageChannel, MessageOutbox } from '../../messages/message-outbox';
import type { TransactionRow } from './transactions.queries';

/**
 * CONTRACT §10: init with `phone` or `email` sends the payment link through the message outbox, one message per
 * channel asked for. Returns whether each was delivered.
 */
export async function sendLinkMessages(
  db: Queryable,
  outbox: MessageOutbox,
  { row, transaction, now }: { row: TransactionRow; transaction: Transaction; now: Date },
): Promise<Partial<Record<MessageChannel, boolean>>> {
  const amount = transaction.amount === null ? '' : ` of ${centsToMajor(row.amountCents ?? 0).toFixed(2)} ${row.currency}`;
  const body = `${transaction.businessName} asks you for a payment${amount}. Pay here: ${transaction.transactionPage.qrURL}`;
  const recipients: [MessageChannel, string | null][] = [
    ['sms', row.phone],
    ['email', row.email],
  ];
  const delivered: Partial<Record<MessageChannel, boolean>> = {};
  for (const [channel, recipient] of recipients) {
    if (!recipient) continue;
    const result = await outbox.send({ merchantId: row.merchantId, transactionId: row.id, channel, recipient, body }, { db, now });
    delivered[channel] = result.delivered;
  }
  return delivered;
}
