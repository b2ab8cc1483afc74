import type { Queryable } from '../../db/client';
import type { MessageChannel, MessageOutbox } from '../../messages/message-outbox';
import { linkEmailText, linkSmsText, type LinkMessageFacts } from './link-message-texts';
import type { TransactionRow } from './transactions.queries';

/**
 * docs/integrating.md#links-by-sms-and-e-mail: init with `phone` or `email` sends the payment link through the message outbox, one message per
 * channel asked for. Returns whether each was delivered (the SMS's becomes the transaction's `SMS` field).
 */
export async function sendLinkMessages(
  db: Queryable,
  outbox: MessageOutbox,
  { row, facts, now }: { row: Pick<TransactionRow, 'id' | 'merchantId' | 'phone' | 'email'>; facts: LinkMessageFacts; now: Date },
): Promise<Partial<Record<MessageChannel, boolean>>> {
  const messages: [MessageChannel, string | null, string][] = [
    ['sms', row.phone, linkSmsText(facts)],
    ['email', row.email, linkEmailText(facts)],
  ];
  const delivered: Partial<Record<MessageChannel, boolean>> = {};
  for (const [channel, recipient, body] of messages) {
    if (!recipient) continue;
    const result = await outbox.send({ merchantId: row.merchantId, transactionId: row.id, channel, recipient, body }, { db, now });
    delivered[channel] = result.delivered;
  }
  return delivered;
}
