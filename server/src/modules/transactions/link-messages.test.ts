import type { SandboxMessages, Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import type { MessageOutbox } from '../../messages/message-outbox';
import { startTestApp } from '../../test/app';
import { useTestApp } from '../../test/harness';
import { merchantClient } from '../../test/merchant-client';
import { linkEmail } from './link-email';
import { linkSmsText } from './link-message-texts';

const t = useTestApp({ merchantName: 'Corner Shop' });

const messagesOf = async (transactionNumber: string) =>
  (await t.client.call<SandboxMessages>('GET', '/sandbox/messages')).body.messages.filter((m) => m.transactionNumber === transactionNumber);

describe('the payment link by SMS and e-mail', () => {
  it('sends the texts through the outbox and reads SMS Sent from the start (creation event included)', async () => {
    const created = await t.client.init({ amount: 12.5, currency: 'USD', phone: '+1 555 0100', email: 'buyer@example.com' });
    expect(created.body).toMatchObject({ SMS: 'Sent', sequence: 1 });
    const facts = { businessName: 'Corner Shop', amountCents: 1250, currency: 'USD', url: created.body.transactionPage.qrURL, language: 'en' } as const;
    const sent = await messagesOf(created.body.TransactionNumber);
    expect(sent.find((m) => m.channel === 'sms')).toMatchObject({
      to: '+1 555 0100',
      body: linkSmsText(facts),
      status: 'sent',
      encoding: 'gsm7',
      segments: 1,
    });
    const email = sent.find((m) => m.channel === 'email')!;
    const { subject, body, html } = linkEmail(facts);
    expect(email).toMatchObject({ to: 'buyer@example.com', subject, body, html });
    expect(subject).toBe('Payment request from Corner Shop');
    expect(email).not.toHaveProperty('encoding');
    const [event] = await t.database.sql<{ payload: string }[]>`
      select e.payload from transaction_events e join transactions x on x.id = e.transaction_id
      where x.transaction_number = ${created.body.TransactionNumber} and e.sequence = 1`;
    expect((JSON.parse(event!.payload) as Transaction).SMS).toBe('Sent');
  });

  it("speaks init's language: a Hebrew SMS is UCS-2, and the outbox records its encoding and segments", async () => {
    const created = await t.client.init({ amount: 12.5, currency: 'ILS', phone: '+972 50 555 0100', email: 'buyer@example.com', language: 'he' });
    const facts = { businessName: 'Corner Shop', amountCents: 1250, currency: 'ILS', url: created.body.transactionPage.qrURL, language: 'he' } as const;
    const sent = await messagesOf(created.body.TransactionNumber);
    expect(sent.find((m) => m.channel === 'sms')).toMatchObject({ body: linkSmsText(facts), encoding: 'ucs2', segments: 2 });
    const email = sent.find((m) => m.channel === 'email')!;
    expect(email.body).toContain('לתשלום מאובטח');
    expect(email.subject).toBe('בקשת תשלום מאת Corner Shop');
    expect(email.html).toContain('<html lang="he" dir="rtl">');
    expect(sent.find((m) => m.channel === 'sms')).not.toHaveProperty('subject');
  });

  it('refuses a language the service does not speak', async () => {
    const refused = await t.client.call('POST', '/transactions/init', { amount: 1, currency: 'USD', language: 'tlh' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('language must be one of en, he, ar, ru, fr, de, es');
  });

  it('reads Not requested without a phone, even when an e-mail is sent', async () => {
    const created = await t.client.init({ amount: 3, currency: 'USD', email: 'buyer@example.com' });
    expect(created.body.SMS).toBe('Not requested');
    expect((await messagesOf(created.body.TransactionNumber)).map((m) => m.channel)).toEqual(['email']);
  });

  it('reads Pending while the outbox holds the SMS for its provider (production queues it)', async () => {
    const queueing: MessageOutbox = { canSend: () => true, send: async (message) => (message.channel === 'sms' ? 'queued' : 'sent') };
    const app = await startTestApp(t.database, { messages: queueing });
    try {
      const created = await merchantClient(app, t.merchant).init({ amount: 3, currency: 'USD', phone: '+1 555 0100' });
      expect(created.body.SMS).toBe('Pending');
      expect((await t.client.get(created.body.TransactionNumber)).body.SMS).toBe('Pending');
    } finally {
      await app.close();
    }
  });
});
