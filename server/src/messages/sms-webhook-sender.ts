import { signCallback } from '@svc/protocol';
import type { SendableMessage } from './message-outbox';

const TIMEOUT_MS = 10_000;

/**
 * Posts each link SMS `{ to, text }` as JSON to the operator's SMS gateway (SMS_WEBHOOK_URL), signed with
 * SMS_WEBHOOK_SECRET exactly as callbacks are (the spec's HMAC headers and the Standard Webhooks ones; `webhook-id` is
 * the message's id, the same on every attempt, so the gateway can drop a repeat). A 2xx within 10 s is accepted;
 * anything else is not (the message sender retries it), and no redirect is followed.
 */
export class SmsWebhookSender {
  constructor(
    private readonly url: string,
    private readonly secret: string,
    private readonly wallSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async send(message: SendableMessage): Promise<boolean> {
    const body = JSON.stringify({ to: message.recipient, text: message.body });
    const headers = await signCallback(this.secret, message.id, body, this.wallSeconds());
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'svc-messages/1.0', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.body?.cancel();
    return res.ok;
  }
}
