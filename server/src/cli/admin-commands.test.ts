import { AuditLogPageSchema, CreatedCredentialSchema, CredentialSchema, RolledWebhookSecretSchema } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { bearer } from '../test/app';
import { provisionTestMerchant } from '../test/fixtures';
import { useTestApp } from '../test/harness';
import { runNode } from '../test/process';
import { systemClock } from '../clock';
import { runAdminCommand } from './admin-actions';
import type { AdminCommand } from './admin-commands';
import { parseCommand, UsageError } from './command';

const t = useTestApp({ origins: ['https://shop.example.com'] });

/** The CLI as a process (slow to start: used for what only the process shows, the exit codes and the streams). */
const svcProcess = (...args: string[]) => runNode(['bin/svc.mjs', ...args], { DATABASE_URL: t.database.url });

/** The same command line run in this process: what it prints on stdout and its exit code. */
async function svc(...args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await runAdminCommand(t.database.db, systemClock, parseCommand(args) as AdminCommand, (text) => (stdout += text));
  return { code, stdout };
}
const json = async (...args: string[]): Promise<unknown> => {
  const result = await svc(...args, '--json');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
};
const status = (key: string) => t.app.request('/transactions/TNOSUCHTHING0000', { headers: bearer(key) }).then((res) => res.status);

/**
 * The status a key gets once the app has heard of a change the CLI made: the CLI is another process as far as the app
 * is concerned, and its running instances forget a changed credential when the database's notice reaches them.
 */
async function statusOnceHeard(key: string, expected: number): Promise<number> {
  const deadline = performance.now() + 5_000;
  let seen = await status(key);
  while (seen !== expected && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    seen = await status(key);
  }
  return seen;
}

describe('svc credentials, origins, secret, payment-methods and audit', () => {
  it('lists, creates and revokes credentials; the key printed once works at once and is refused once revoked', async () => {
    const m = await provisionTestMerchant(t.database.db, 'CLI Shop', ['https://shop.example.com']);
    const listed = CredentialSchema.array().parse(await json('credentials', 'list', '--merchant', m.merchantId));
    expect(listed.map((c) => c.kind).sort()).toEqual(['branch_key', 'client', 'device', 'merchant_key']);

    const created = CreatedCredentialSchema.parse(await json('credentials', 'create', '--merchant', m.merchantId, '--kind', 'merchant_key'));
    expect(created.value).toMatch(/^sk_/);
    expect(await status(created.value)).toBe(404);

    const readable = await svc('credentials', 'list', '--merchant', m.merchantId);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toContain(created.credential.hint);
    expect(readable.stdout).not.toContain(created.value);
    expect(readable.stdout).not.toContain(m.apiKey);

    const revoked = await svc('credentials', 'revoke', '--merchant', m.merchantId, created.credential.credentialId);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(/^Revoked merchant key sk_…/);
    expect(await statusOnceHeard(created.value, 401)).toBe(401);

    // A branch key of the merchant's branch; a client ID with its origins; the readable form says the value once.
    const branchKey = await svc('credentials', 'create', '--merchant', m.merchantId, '--kind', 'branch_key', '--branch', m.branchId);
    expect(branchKey.stdout).toMatch(/Store it now: it is not shown again\.\n\n {2}bk_[A-Za-z0-9]{32}\n/);
    const client = CreatedCredentialSchema.parse(
      await json('credentials', 'create', '--merchant', m.merchantId, '--kind', 'client', '--origin', 'https://cli.example.com/'),
    );
    expect(client.credential.allowedOrigins).toEqual(['https://cli.example.com']);
  });

  it("adds and removes a client ID's origins, rolls the secret, sets the payment methods, and the audit log shows the operator did", async () => {
    const m = await provisionTestMerchant(t.database.db, 'CLI Origins', ['https://shop.example.com']);
    const clientId = CredentialSchema.array()
      .parse(await json('credentials', 'list', '--merchant', m.merchantId))
      .find((c) => c.kind === 'client')!.credentialId;
    const added = CredentialSchema.parse(await json('origins', 'add', '--merchant', m.merchantId, clientId, 'https://typo.example.com'));
    expect(added.allowedOrigins).toEqual(['https://shop.example.com', 'https://typo.example.com']);
    const removed = await svc('origins', 'remove', '--merchant', m.merchantId, clientId, 'https://shop.example.com');
    expect(removed.stdout).toBe(`Client ID ${added.hint} allows: https://typo.example.com\n`);

    const rolled = RolledWebhookSecretSchema.parse(await json('secret', 'roll', '--merchant', m.merchantId, '--overlap', '3600'));
    expect(rolled.hmacSecret).not.toBe(m.hmacSecret);
    expect(rolled.previousSecretValidUntil).not.toBeNull();
    const [row] = await t.database.sql<{ hmac_secret: string; previous_hmac_secret: string }[]>`
      select hmac_secret, previous_hmac_secret from merchants where id = ${m.merchantId}`;
    expect(row).toEqual({ hmac_secret: rolled.hmacSecret, previous_hmac_secret: m.hmacSecret });

    expect(await json('merchant', 'payment-methods', '--merchant', m.merchantId, 'paypal,card')).toEqual({ paymentMethods: ['card', 'paypal'] });
    expect((await svc('merchant', 'payment-methods', '--merchant', m.merchantId)).stdout).toBe("The merchant's widgets offer: card, paypal\n");

    const page = AuditLogPageSchema.parse(await json('audit', '--merchant', m.merchantId));
    expect(page.data.map((e) => e.action)).toEqual(['payment_methods.updated', 'webhook_secret.rolled', 'allowed_origin.removed', 'allowed_origin.added']);
    for (const entry of page.data) expect(entry.actor).toEqual({ kind: 'operator', credentialId: null, hint: null });
    const text = (await svc('audit', '--merchant', m.merchantId, '--limit', '2')).stdout;
    expect(text.trim().split('\n')).toHaveLength(3);
    expect(text).toMatch(/operator {2}payment_methods\.updated/);
    expect(text).toMatch(/\(older entries: --starting-after \d+\)\n$/);
    for (const output of [text, JSON.stringify(page)]) {
      for (const secret of [m.hmacSecret, rolled.hmacSecret, m.apiKey, m.clientId]) expect(output).not.toContain(secret);
    }
  });

  it('as a process: --json prints only the new key, which works at once; a refusal of the service is one line on stderr and exit 1', async () => {
    const m = await provisionTestMerchant(t.database.db);
    const created = await svcProcess('credentials', 'create', '--merchant', m.merchantId, '--kind', 'merchant_key', '--json');
    expect(created.code).toBe(0);
    expect(created.stdout.trim().split('\n')).toHaveLength(1);
    const key = CreatedCredentialSchema.parse(JSON.parse(created.stdout));
    expect(await status(key.value)).toBe(404);
    const refused = await svcProcess('origins', 'add', '--merchant', m.merchantId, key.credential.credentialId, 'https://a.example.com');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^svc: .*Only a client ID has allowed origins/);
  });

  it('an unknown merchant is refused before anything is done', async () => {
    expect(await svc('credentials', 'list', '--merchant', '00000000-0000-4000-8000-000000000000')).toEqual({ code: 1, stdout: '' });
  });

  it.each([
    [['credentials', 'list']],
    [['credentials', 'list', '--merchant', 'abc']],
    [['credentials', 'create', '--merchant', '00000000-0000-4000-8000-000000000000', '--kind', 'device']],
    [['credentials', 'create', '--merchant', '00000000-0000-4000-8000-000000000000', '--kind', 'branch_key']],
    [['credentials', 'revoke', '--merchant', '00000000-0000-4000-8000-000000000000']],
    [['origins', 'add', '--merchant', '00000000-0000-4000-8000-000000000000', '00000000-0000-4000-8000-000000000000', 'https://a.example.com/path']],
    [['secret', 'roll', '--merchant', '00000000-0000-4000-8000-000000000000', '--overlap', '-5']],
    [['secret', 'roll', '--merchant', '00000000-0000-4000-8000-000000000000', '--kind', 'client']],
    [['merchant', 'payment-methods', '--merchant', '00000000-0000-4000-8000-000000000000', 'card,cash']],
    [['audit', '--merchant', '00000000-0000-4000-8000-000000000000', '--limit', '500']],
  ])('usage error %j', (args) => {
    expect(() => parseCommand(args)).toThrow(UsageError);
  });

  it('a usage error as a process: the usage on stderr, nothing on stdout, exit 2', async () => {
    const result = await svcProcess('secret', 'roll', '--merchant', 'nope');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/--merchant nope is not a merchant id/);
    expect(result.stderr).toMatch(/svc secret roll --merchant ID \[--overlap SECONDS\]/);
  });
});

describe('parseCommand for the credential commands', () => {
  const merchant = '7B3C0F1E-9A2D-4C5B-8E6F-0123456789AB';
  it('reads each command with its defaults', () => {
    expect(parseCommand(['secret', 'roll', '--merchant', merchant])).toEqual({
      command: 'secret roll',
      merchantId: merchant.toLowerCase(),
      overlapSeconds: 86_400,
      json: false,
    });
    expect(parseCommand(['audit', '--merchant', merchant, '--json'])).toEqual({
      command: 'audit',
      merchantId: merchant.toLowerCase(),
      limit: 20,
      startingAfter: undefined,
      json: true,
    });
    expect(parseCommand(['merchant', 'payment-methods', '--merchant', merchant, 'googlepay, card'])).toMatchObject({ paymentMethods: ['card', 'googlepay'] });
  });
});
