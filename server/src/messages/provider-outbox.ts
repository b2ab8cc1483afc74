import type { Env } from '../env';
import type { ChannelSenders, HandedOver, MessageChannel, MessageOutbox, OutboundMessage, SendContext } from './message-outbox';
import { queueMessage } from './messages.queries';
import { SmsWebhookSender } from './sms-webhook-sender';
import { SmtpSender } from './smtp-sender';

/**
 * The production outbox: a message is queued in the sending change's database transaction (the transaction's `SMS`
 * reads `Pending`), and the message sender hands it to the provider configured for its channel after the commit,
 * retrying a refusal (message-sender.ts). A channel without a provider cannot send, and an init asking for it is
 * refused (`messages_unavailable`).
 */
export class ProviderMessageOutbox implements MessageOutbox {
  constructor(private readonly channels: ReadonlySet<MessageChannel>) {}

  canSend(channel: MessageChannel): boolean {
    return this.channels.has(channel);
  }

  async send(message: OutboundMessage, { db, now }: SendContext): Promise<HandedOver> {
    await queueMessage(db, message, now);
    return 'queued';
  }
}

/** The providers the environment names (SMTP_URL, SMS_WEBHOOK_URL), each channel with its own. */
export function providerSenders(env: Pick<Env, 'SMTP_URL' | 'SMTP_FROM' | 'SMS_WEBHOOK_URL' | 'SMS_WEBHOOK_SECRET'>): ChannelSenders {
  return {
    ...(env.SMTP_URL && env.SMTP_FROM ? { email: new SmtpSender(env.SMTP_URL, env.SMTP_FROM) } : {}),
    ...(env.SMS_WEBHOOK_URL && env.SMS_WEBHOOK_SECRET ? { sms: new SmsWebhookSender(env.SMS_WEBHOOK_URL, env.SMS_WEBHOOK_SECRET) } : {}),
  };
}

/** The production outbox for the channels the environment gives a provider. */
export function providerOutbox(env: Pick<Env, 'SMTP_URL' | 'SMTP_FROM' | 'SMS_WEBHOOK_URL' | 'SMS_WEBHOOK_SECRET'>): ProviderMessageOutbox {
  const channels = new Set<MessageChannel>();
  if (env.SMTP_URL && env.SMTP_FROM) channels.add('email');
  if (env.SMS_WEBHOOK_URL && env.SMS_WEBHOOK_SECRET) channels.add('sms');
  return new ProviderMessageOutbox(channels);
}
