import type { SandboxMessages, Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import type { MessageOutbox } from '../../messages/message-outbox';
import { startTestApp } from '../../test/app';
import { useTestApp } from '../../test/harness';
import { merchantClient } from '../../test/merchant-client';
import { linkEmailText, linkSmsText } from './link-message-texts';

const t = useTestApp({ merchantName: 'Corner Shop' });

const messagesOf = async (transactionNumber: string) =>
  (await t.client.call<SandboxMessages>('GET', '/sandbox/messages')).body.messages.filter((m) => m.transactionNumber === transactionNumber);

describe('the payment link by SMS and e-mail', () => {
  it('sends the texts through the outbox and reads SMS Sent from the start (creation event included)', async () => {
    const created = await t.client.init({ amount: 12.5, currency: 'USD', phone: '+1 555 0100', email: 'buyer@example.com' });
    expect(created.body).toMatchObject({ SMS: 'Sent', sequence: 1 });
    const facts = { businessName: 'Corner Shop', amountCents: 1250, currency: 'USD', url: created.body.transactionPage.qrURL };
    const sent = await messagesOf(created.body.TransactionNumber);
    expect(sent.find((m) => m.channel === 'sms')).toMatchObject({ to: '+1 555 0100', body: linkSmsText(facts), status: 'sent' });
    expect(sent.find((m) => m.channel === 'email')).toMatchObject({ to: 'buyer@example.com', body: linkEmailText(facts) });
    const [event] = await t.database.sql<{ payload: string }[]>`
      select e.payload from transaction_events e join transactions x on x.id = e.transaction_id
      where x.transaction_number = ${created.body.TransactionNumber} and e.sequence = 1`;
    expect((JSON.parse(event!.payload) as Transaction).SMS).toBe('Sent');
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
