import type { HandedOver, MessageOutbox, OutboundMessage, SendContext } from '../../messages/message-outbox';
import { smsShape } from '../../messages/sms-encoding';
import { insertMessage } from './messages.queries';

/**
 * The sandbox's message outbox: nothing leaves the service; each message is recorded, in the sending change's
 * database transaction, as sent (readable at GET /sandbox/messages).
 */
export class SandboxMessageOutbox implements MessageOutbox {
  canSend(): boolean {
    return true;
  }

  async send(message: OutboundMessage, { db, now }: SendContext): Promise<HandedOver> {
    const shape = message.channel === 'sms' ? smsShape(message.body) : null;
    await insertMessage(db, { ...message, status: 'sent', encoding: shape?.encoding ?? null, segments: shape?.segments ?? null, createdAt: now });
    return 'sent';
  }
}
