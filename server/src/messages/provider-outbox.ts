import type { Env } from '../env';
import type { Logger } from '../logger';
import { metrics } from '../metrics';
import type { MessageChannel, MessageOutbox, OutboundMessage } from './message-outbox';
import { SmsWebhookSender } from './sms-webhook-sender';
import { SmtpSender } from './smtp-sender';

interface ChannelSender {
  send(message: OutboundMessage): Promise<boolean>;
}

/**
 * The production outbox: each channel goes to the provider configured for it (e-mail over SMTP_URL, SMS to
 * SMS_WEBHOOK_URL). A channel without a provider cannot send, and an init asking for it is refused
 * (`messages_unavailable`); a message the provider did not accept is reported undelivered (the transaction's `SMS`
 * reads `Failed`), never as sent.
 */
export class ProviderMessageOutbox implements MessageOutbox {
  constructor(
    private readonly senders: Partial<Record<MessageChannel, ChannelSender>>,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  canSend(channel: MessageChannel): boolean {
    return this.senders[channel] !== undefined;
  }

  async send(message: OutboundMessage): Promise<{ delivered: boolean }> {
    const sender = this.senders[message.channel];
    if (!sender) return { delivered: false };
    let delivered = false;
    try {
      delivered = await sender.send(message);
    } catch (error) {
      // The error's text only: a provider's message never carries the recipient here, and the address is not logged.
      this.logger.warn({ channel: message.channel, error: (error as Error).message }, 'link message not accepted by its provider');
    }
    metrics.messages.inc({ channel: message.channel, outcome: delivered ? 'sent' : 'failed' });
    return { delivered };
  }
}

/** The providers the environment names (SMTP_URL, SMS_WEBHOOK_URL), each channel with its own. */
export function providerOutbox(
  env: Pick<Env, 'SMTP_URL' | 'SMTP_FROM' | 'SMS_WEBHOOK_URL' | 'SMS_WEBHOOK_SECRET'>,
  logger: Pick<Logger, 'warn'>,
): ProviderMessageOutbox {
  return new ProviderMessageOutbox(
    {
      ...(env.SMTP_URL && env.SMTP_FROM ? { email: new SmtpSender(env.SMTP_URL, env.SMTP_FROM) } : {}),
      ...(env.SMS_WEBHOOK_URL && env.SMS_WEBHOOK_SECRET ? { sms: new SmsWebhookSender(env.SMS_WEBHOOK_URL, env.SMS_WEBHOOK_SECRET) } : {}),
    },
    logger,
  );
}
