import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProvisionedMerchant } from '@svc/protocol';
import { verifyCallback } from '@svc/protocol';
import { ManualClock } from '../clock';
import { startTestApp, type TestApp } from '../test/app';
import { answer, startReceiver } from '../test/callback-receiver';
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

describe('link messages in production', () => {
  let database: TestDatabase;
  const apps: TestApp[] = [];
  let merchant: ProvisionedMerchant;

  const production = async (env: Record<string, string>) => {
    const app = await startTestApp(database, { env: { ...PRODUCTION, ...env }, clock: new ManualClock() });
    apps.push(app);
    return merchantClient(app, merchant);
  };
  const transactionCount = async () =>
    (await database.sql<{ n: number }[]>`select count(*)::int as n from transactions where merchant_id = ${merchant.merchantId}`)[0]!.n;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchant = await provisionTestMerchant(database.db, 'Message Shop');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.drop();
  });

  it('refuses an init with a phone when no SMS provider is configured, creating nothing', async () => {
    const client = await production({});
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

  it('sends the link e-mail through the SMTP server SMTP_URL names', async () => {
    const smtp = await startSmtpServer();
    try {
      const client = await production({ SMTP_URL: smtp.url, SMTP_FROM: 'Payments <pay@example.com>' });
      const created = await client.init({ amount: 7.25, currency: 'USD', email: 'shopper@example.com' });
      expect(created.status).toBe(200);
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]!.from).toBe('pay@example.com');
      expect(smtp.mails[0]!.to).toEqual(['shopper@example.com']);
      const linkId = created.body.transactionPage.qrURL.split('/pay/')[1]!;
      expect(smtp.mails[0]!.data.replace(/=\r?\n/g, '')).toContain(linkId);
    } finally {
      await smtp.close();
    }
  });

  it('posts each SMS to SMS_WEBHOOK_URL signed like a callback; SMS reads Sent only when the gateway accepted it', async () => {
    const gateway = await startReceiver(answer(202));
    try {
      const client = await production({ SMS_WEBHOOK_URL: `${gateway.url}/sms`, SMS_WEBHOOK_SECRET: SMS_SECRET });
      const created = await client.init({ amount: 3, currency: 'USD', phone: '+15552223333' });
      expect(created.status).toBe(200);
      expect(created.body.SMS).toBe('Sent');
      expect(gateway.received).toHaveLength(1);
      const posted = gateway.received[0]!;
      const sms = JSON.parse(posted.body) as { to: string; text: string };
      expect(sms.to).toBe('+15552223333');
      expect(sms.text).toContain(created.body.transactionPage.qrURL.split('/pay/')[1]!);
      // Both signatures verify with the secret: the spec's HMAC and the Standard Webhooks one.
      const headers = posted.headers as Record<string, string>;
      expect(await verifyCallback(SMS_SECRET, (name) => headers[name.toLowerCase()], posted.body)).toBe(true);
      expect(() => new Webhook(SMS_SECRET).verify(posted.body, headers)).not.toThrow();

      gateway.behave(answer(500));
      const failed = await client.init({ amount: 3, currency: 'USD', phone: '+15552223333' });
      expect(failed.status).toBe(200);
      expect(failed.body.SMS).toBe('Failed');
    } finally {
      await gateway.close();
    }
  });
});
