import { MerchantSettingsSchema } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/harness';
import { runNode } from '../test/process';
import { parseCommand, UsageError } from './command';

const t = useTestApp();

const svc = (...args: string[]) => runNode(['bin/svc.mjs', ...args], { DATABASE_URL: t.database.url });

describe('svc merchant settings', () => {
  it("sets a branch's default callback URL, which the next init of that branch gets", async () => {
    const hook = 'https://branch.example.com/hooks';
    const set = await svc('merchant', 'settings', '--merchant', t.merchant.merchantId, '--branch', t.merchant.branchId, '--callback-url', hook, '--json');
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    const settings = MerchantSettingsSchema.parse(JSON.parse(set.stdout));
    expect(settings.callbackURL).toBeNull();
    expect(settings.branches).toEqual([{ branchId: t.merchant.branchId, name: expect.any(String), callbackURL: hook, callbackMethod: 'POST' }]);

    const created = await t.app.request('/transactions/init', {
      headers: { authorization: `Bearer ${t.merchant.branchApiKey}` },
      body: { amount: 5, currency: 'USD' },
    });
    const { TransactionNumber } = (await created.json()) as { TransactionNumber: string };
    const [row] = await t.database.sql<{ callback_url: string }[]>`select callback_url from transactions where transaction_number = ${TransactionNumber}`;
    expect(row?.callback_url).toBe(hook);

    const shown = await svc('merchant', 'settings', '--merchant', t.merchant.merchantId);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('merchant: (no default callback URL)');
    expect(shown.stdout).toContain(`branch ${t.merchant.branchId}`);
    expect(shown.stdout).toContain(`POST ${hook}`);
  });

  it('refuses a URL an init would refuse: one line on stderr, exit 1, nothing changed', async () => {
    const refused = await svc('merchant', 'settings', '--merchant', t.merchant.merchantId, '--callback-url', 'http://127.0.0.1:9/hooks');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^svc: callbackURL must reach a public address/);
    const [row] = await t.database.sql<{ callback_url: string | null }[]>`select callback_url from merchants where id = ${t.merchant.merchantId}`;
    expect(row?.callback_url).toBeNull();
  });
});

describe('parseCommand: merchant settings', () => {
  const merchant = '7b3c0f1e-9a2d-4c5b-8e6f-0123456789ab';

  it('reads a change, a removal, and a plain look', () => {
    expect(parseCommand(['merchant', 'settings', '--merchant', merchant, '--callback-url', 'https://x.example/h', '--callback-method', 'get'])).toEqual({
      command: 'merchant settings',
      merchantId: merchant,
      update: { callbackURL: 'https://x.example/h', callbackMethod: 'GET' },
      json: false,
    });
    expect(parseCommand(['merchant', 'settings', '--merchant', merchant, '--branch', merchant, '--clear-callback-url'])).toMatchObject({
      update: { branchId: merchant, callbackURL: null },
    });
    expect(parseCommand(['merchant', 'settings', '--merchant', merchant, '--json'])).toMatchObject({ update: null, json: true });
  });

  it.each([
    [['merchant', 'settings']],
    [['merchant', 'settings', '--merchant', 'acme']],
    [['merchant', 'settings', '--merchant', merchant, '--callback-url', 'ftp://x.example']],
    [['merchant', 'settings', '--merchant', merchant, '--callback-method', 'PUT']],
    [['merchant', 'settings', '--merchant', merchant, '--callback-url', 'https://x.example', '--clear-callback-url']],
    [['merchant', 'settings', '--merchant', merchant, '--branch', merchant]],
    [['merchant', 'settings', '--merchant', merchant, '--bogus']],
  ])('usage error %j', (args) => {
    expect(() => parseCommand(args)).toThrow(UsageError);
  });
});
