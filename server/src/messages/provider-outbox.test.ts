import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProvisionedMerchant } from '@svc/protocol';
import { verifyCallback } from '@svc/protocol';
import { ManualClock } from '../clock';
import { createLogger } from '../logger';
import { recordSmsOutcome } from '../modules/transactions';
import { createMessageSender } from './message-sender';
import { mailParts, mailSubject } from '../test/mail-parts';
import { providerSenders } from './provider-outbox';
import { startTestApp, type TestApp } from '../test/app';
import { answer, startReceiver, type Behaviour } from '../test/callback-receiver';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { provisionTestMerchant } from '../test/fixtures';
import { codeOf, merchantClient } from '../test/merchant-client';

const SMS_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const PRODUCTION = { SVC_MODE: 'production', PUBLIC_BASE_URL: 'https://pay.example.com' };

interface Mail {
  from: string;
  to: string[];
  data: string;
}

/** A real SMTP server on loopback that keeps every message it is given. */
async function startSmtpServer() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let data = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (data += chunk));
      stream.on('end', () => {
        mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { mails, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Answers each request with the next status of `statuses`, the last one from then on. */
const answers =
  (...statuses: number[]): Behaviour =>
  (req, res) => {
    const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
    answer(status)(req, res);
  };

describe('link messages in production', () => {
  let database: TestDatabase;
  const apps: TestApp[] = [];
  let merchant: ProvisionedMerchant;
  let clock: ManualClock;

  /** An app in production with these providers, and the message sender main.ts would run beside it (driven by hand). */
  const production = async (env: Record<string, string>) => {
    clock = new ManualClock();
    const app = await startTestApp(database, { env: { ...PRODUCTION, ...env }, clock });
    apps.push(app);
    const logger = createLogger({ level: 'silent' });
    const sender = createMessageSender({ db: database.db, clock, env: app.env, logger, senders: providerSenders(app.env), smsOutcome: recordSmsOutcome });
    return { client: merchantClient(app, merchant), sender };
  };
  const transactionCount = async () =>
    (await database.sql<{ n: number }[]>`select count(*)::int as n from transactions where merchant_id = ${merchant.merchantId}`)[0]!.n;
  const eventsOf = async (transactionNumber: string) =>
    (
      await database.sql<{ sequence: number; payload: string }[]>`
        select e.sequence, e.payload from transaction_events e join transactions x on x.id = e.transaction_id
        where x.transaction_number = ${transactionNumber} order by e.sequence`
    ).map((e) => ({ sequence: e.sequence, SMS: (JSON.parse(e.payload) as { SMS: string }).SMS }));

  beforeAll(async () => {
    database = await createTestDatabase();
    merchant = await provisionTestMerchant(database.db, 'Message Shop');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.drop();
  });

  it('refuses an init with a phone when no SMS provider is configured, creating nothing', async () => {
    const { client } = await production({});
    const before = await transactionCount();
    const refused = await client.init({ amount: 5, currency: 'USD', phone: '+15550001111' });
    expect(refused.status).toBe(422);
    expect(codeOf(refused.body)).toBe('messages_unavailable');
    const byMail = await client.init({ amount: 5, currency: 'USD', email: 'someone@example.com' });
    expect(byMail.status).toBe(422);
    expect(codeOf(byMail.body)).toBe('messages_unavailable');
    expect(await transactionCount()).toBe(before);
    // Without a message, an init is as usual.
    expect((await client.init({ amount: 5, currency: 'USD' })).status).toBe(200);
  });

  it('sends the link e-mail through the SMTP server SMTP_URL names, after the init commits', async () => {
    const smtp = await startSmtpServer();
    try {
      const { client, sender } = await production({ SMTP_URL: smtp.url, SMTP_FROM: 'Payments <pay@example.com>' });
      const created = await client.init({ amount: 7.25, currency: 'USD', email: 'shopper@example.com' });
      expect(created.status).toBe(200);
      expect(smtp.mails).toHaveLength(0);
      expect(await sender.runOnce()).toBe(1);
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]!.from).toBe('pay@example.com');
      expect(smtp.mails[0]!.to).toEqual(['shopper@example.com']);
      const linkId = created.body.transactionPage.qrURL.split('/pay/')[1]!;
      expect(smtp.mails[0]!.data.replace(/=\r?\n/g, '')).toContain(linkId);
      expect(await sender.runOnce()).toBe(0);
    } finally {
      await smtp.close();
    }
  });

  it('sends the e-mail with a subject naming the business, and a text and an HTML part in the consumer’s direction', async () => {
    const smtp = await startSmtpServer();
    try {
      const { client, sender } = await production({ SMTP_URL: smtp.url, SMTP_FROM: 'pay@example.com' });
      const created = await client.init({ amount: 7.25, currency: 'ILS', email: 'shopper@example.com', language: 'he' });
      expect(await sender.runOnce()).toBe(1);
      const { data } = smtp.mails[0]!;
      expect(mailSubject(data)).toBe('בקשת תשלום מאת Message Shop');
      expect(data).toMatch(/^Content-Type: multipart\/alternative;/im);
      const parts = mailParts(data);
      expect(parts.map((part) => part.type)).toEqual(['text/plain', 'text/html']);
      expect(parts[0]!.body).toContain('התקבלה בקשת תשלום מאת Message Shop');
      expect(parts[1]!.body).toContain('<html lang="he" dir="rtl">');
      expect(parts[1]!.body).toContain(`<a href="${created.body.transactionPage.qrURL}">`);
    } finally {
      await smtp.close();
    }
  });

  it('posts each SMS to SMS_WEBHOOK_URL signed like a callback; SMS reads Pending, then Sent once the gateway accepted it', async () => {
    const gateway = await startReceiver(answer(202));
    try {
      const { client, sender } = await production({ SMS_WEBHOOK_URL: `${gateway.url}/sms`, SMS_WEBHOOK_SECRET: SMS_SECRET });
      const created = await client.init({ amount: 3, currency: 'USD', phone: '+15552223333' });
      expect(created.status).toBe(200);
      expect(created.body.SMS).toBe('Pending');
      expect(await sender.runOnce()).toBe(1);
      expect(gateway.received).toHaveLength(1);
      const posted = gateway.received[0]!;
      const sms = JSON.parse(posted.body) as { to: string; text: string };
      expect(sms.to).toBe('+15552223333');
      expect(sms.text).toContain(created.body.transactionPage.qrURL.split('/pay/')[1]!);
      // Both signatures verify with the secret: the spec's HMAC and the Standard Webhooks one.
      const headers = posted.headers as Record<string, string>;
      expect(await verifyCallback(SMS_SECRET, (name) => headers[name.toLowerCase()], posted.body)).toBe(true);
      expect(() => new Webhook(SMS_SECRET).verify(posted.body, headers)).not.toThrow();
      // The SMS's fate is an update of its own: Pending at creation, Sent at sequence 2.
      expect((await client.get(created.body.TransactionNumber)).body).toMatchObject({ SMS: 'Sent', sequence: 2 });
      expect(await eventsOf(created.body.TransactionNumber)).toEqual([
        { sequence: 1, SMS: 'Pending' },
        { sequence: 2, SMS: 'Sent' },
      ]);
    } finally {
      await gateway.close();
    }
  });

  it('retries an SMS the gateway refused, by MESSAGE_RETRY_SCHEDULE_S: refused twice, then accepted once, reads Sent', async () => {
    const gateway = await startReceiver(answers(500, 503, 202));
    try {
      const { client, sender } = await production({
        SMS_WEBHOOK_URL: `${gateway.url}/sms`,
        SMS_WEBHOOK_SECRET: SMS_SECRET,
        MESSAGE_RETRY_SCHEDULE_S: '30,120',
      });
      const created = await client.init({ amount: 4, currency: 'USD', phone: '+15552224444' });
      expect(await sender.runOnce()).toBe(1);
      expect((await client.get(created.body.TransactionNumber)).body.SMS).toBe('Pending');
      clock.advance(29);
      expect(await sender.runOnce()).toBe(0); // not due before its wait
      clock.advance(1);
      expect(await sender.runOnce()).toBe(1);
      clock.advance(120);
      expect(await sender.runOnce()).toBe(1);
      clock.advance(3600);
      expect(await sender.runOnce()).toBe(0); // accepted: never sent again
      expect(gateway.received).toHaveLength(3);
      // One message, so one webhook-id on every attempt: the gateway can tell a repeat.
      expect(new Set(gateway.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect((await client.get(created.body.TransactionNumber)).body).toMatchObject({ SMS: 'Sent', sequence: 2 });
      expect(await eventsOf(created.body.TransactionNumber)).toEqual([
        { sequence: 1, SMS: 'Pending' },
        { sequence: 2, SMS: 'Sent' },
      ]);
    } finally {
      await gateway.close();
    }
  });

  it('gives an SMS up after the last retry: SMS reads Failed, and the merchant hears of it', async () => {
    const gateway = await startReceiver(answer(500));
    try {
      const { client, sender } = await production({
        SMS_WEBHOOK_URL: `${gateway.url}/sms`,
        SMS_WEBHOOK_SECRET: SMS_SECRET,
        MESSAGE_RETRY_SCHEDULE_S: '10,10',
      });
      const created = await client.init({ amount: 5, currency: 'USD', phone: '+15552225555', callbackURL: 'https://shop.example.com/cb' });
      for (let i = 0; i < 3; i++) {
        expect(await sender.runOnce()).toBe(1);
        clock.advance(10);
      }
      clock.advance(3600);
      expect(await sender.runOnce()).toBe(0);
      expect(gateway.received).toHaveLength(3);
      expect((await client.get(created.body.TransactionNumber)).body).toMatchObject({ SMS: 'Failed', sequence: 2 });
      const [message] = await database.sql<{ status: string; attempt_count: number; last_error: string }[]>`
        select m.status, m.attempt_count, m.last_error from messages m join transactions x on x.id = m.transaction_id
        where x.transaction_number = ${created.body.TransactionNumber}`;
      expect(message).toMatchObject({ status: 'failed', attempt_count: 3 });
      // The update is a callback like any other.
      const [delivery] = await database.sql<{ sequence: number }[]>`
        select d.sequence from callback_deliveries d join transactions x on x.id = d.transaction_id
        where x.transaction_number = ${created.body.TransactionNumber}`;
      expect(delivery?.sequence).toBe(2);
    } finally {
      await gateway.close();
    }
  });
});
