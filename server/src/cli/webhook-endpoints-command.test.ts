import { CreatedWebhookEndpointSchema, EventPageSchema, WebhookEndpointListSchema } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/harness';
import { paidSale } from '../test/merchant-client';
import { runNode } from '../test/process';
import { parseCommand, UsageError } from './command';

const t = useTestApp();

const svc = (...args: string[]) => runNode(['bin/svc.mjs', ...args], { DATABASE_URL: t.database.url });

describe('svc webhook-endpoints and svc events', () => {
  // Six runs of the CLI, each a process of its own that loads the server's code: minutes on a loaded machine.
  it('add an endpoint (its secret printed once), disable it, list it, remove it, and list the events', { timeout: 180_000 }, async () => {
    const added = await svc(
      'webhook-endpoints',
      'add',
      '--merchant',
      t.merchant.merchantId,
      '--url',
      'https://shop.example/hooks',
      '--events',
      'transaction.refunded,refund.updated',
      '--json',
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const { endpoint, secret } = CreatedWebhookEndpointSchema.parse(JSON.parse(added.stdout));
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint.enabledEvents).toEqual(['transaction.refunded', 'refund.updated']);

    const disabled = await svc('webhook-endpoints', 'update', '--merchant', t.merchant.merchantId, endpoint.endpointId, '--disable');
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toContain('(disabled)');
    const listed = WebhookEndpointListSchema.parse(JSON.parse((await svc('webhook-endpoints', 'list', '--merchant', t.merchant.merchantId, '--json')).stdout));
    expect(listed.data).toEqual([{ ...endpoint, disabled: true }]);
    expect(JSON.stringify(listed)).not.toContain(secret);

    const removed = await svc('webhook-endpoints', 'remove', '--merchant', t.merchant.merchantId, endpoint.endpointId);
    expect(removed.code).toBe(0);
    const again = await svc('webhook-endpoints', 'remove', '--merchant', t.merchant.merchantId, endpoint.endpointId);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^svc: No webhook endpoint/);

    const { transactionNumber } = await paidSale(t.app, t.client, 500);
    const events = EventPageSchema.parse(
      JSON.parse((await svc('events', '--merchant', t.merchant.merchantId, '--type', 'transaction.approved', '--json')).stdout),
    );
    expect(events.data.map((e) => e.data.transaction.TransactionNumber)).toContain(transactionNumber);
  });

  it('refuses a URL a callbackURL could not be: one line on stderr, exit 1', { timeout: 60_000 }, async () => {
    const refused = await svc('webhook-endpoints', 'add', '--merchant', t.merchant.merchantId, '--url', 'http://127.0.0.1:9/hooks', '--events', '*');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^svc: url must reach a public address/);
  });
});

describe('parseCommand: webhook-endpoints', () => {
  const merchant = '7b3c0f1e-9a2d-4c5b-8e6f-0123456789ab';

  it.each([
    [['webhook-endpoints', 'add', '--merchant', merchant, '--url', 'https://x.example/h', '--events', 'charge.succeeded']],
    [['webhook-endpoints', 'add', '--merchant', merchant, '--url', 'https://x.example/h']],
    [['webhook-endpoints', 'update', '--merchant', merchant, merchant]],
    [['webhook-endpoints', 'update', '--merchant', merchant, merchant, '--disable', '--enable']],
    [['webhook-endpoints', 'remove', '--merchant', merchant]],
    [['webhook-endpoints', 'bogus', '--merchant', merchant]],
    [['events', '--merchant', merchant, '--type', 'charge.succeeded']],
    [['events', '--merchant', 'acme']],
  ])('usage error %j', (args) => {
    expect(() => parseCommand(args)).toThrow(UsageError);
  });
});
