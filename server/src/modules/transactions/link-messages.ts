import type { Queryable } from '../../db/client';
import type { HandedOver, MessageChannel, MessageOutbox, OutboundMessage } from '../../messages/message-outbox';
import { linkEmail } from './link-email';
import { linkSmsText, type LinkMessageFacts } from './link-message-texts';
import type { TransactionRow } from './transactions.queries';

/**
 * docs/integrating.md#links-by-sms-and-e-mail: init with `phone` or `email` sends the payment link through the message outbox, one message per
 * channel asked for, in the init's database transaction. Returns where each stands: `sent` (the sandbox records it) or
 * `queued` for the message sender (production); the SMS's becomes the transaction's `SMS` field (`Sent`, `Pending`).
 */
export async function sendLinkMessages(
  db: Queryable,
  outbox: MessageOutbox,
  { row, facts, now }: { row: Pick<TransactionRow, 'id' | 'merchantId' | 'phone' | 'email'>; facts: LinkMessageFacts; now: Date },
): Promise<Partial<Record<MessageChannel, HandedOver>>> {
  const messages: [MessageChannel, string | null, () => Pick<OutboundMessage, 'body' | 'subject' | 'html'>][] = [
    ['sms', row.phone, () => ({ body: linkSmsText(facts), subject: null, html: null })],
    ['email', row.email, () => linkEmail(facts)],
  ];
  const handedOver: Partial<Record<MessageChannel, HandedOver>> = {};
  for (const [channel, recipient, write] of messages) {
    if (!recipient) continue;
    handedOver[channel] = await outbox.send({ merchantId: row.merchantId, transactionId: row.id, channel, recipient, ...write() }, { db, now });
  }
  return handedOver;
}
