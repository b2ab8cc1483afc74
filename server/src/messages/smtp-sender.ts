import nodemailer, { type Transporter } from 'nodemailer';
import type { SendableMessage } from './message-outbox';

/** Sends link e-mails through the operator's SMTP server (SMTP_URL), from SMTP_FROM. */
export class SmtpSender {
  readonly #transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.#transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 10_000 });
  }

  /**
   * Resolves true once the server accepted the message for its recipient: the subject, text and HTML parts the
   * transactions module wrote (multipart/alternative when there is an HTML part).
   */
  async send(message: SendableMessage): Promise<boolean> {
    const info = await this.#transport.sendMail({
      from: this.from,
      to: message.recipient,
      subject: message.subject ?? '',
      text: message.body,
      ...(message.html === null ? {} : { html: message.html }),
    });
    return (info.accepted ?? []).length > 0;
  }

  close(): void {
    this.#transport.close();
  }
}
