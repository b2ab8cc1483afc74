import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { processorOf } from '../../processor/processor-registry';
import { sealCredentials } from '../../processor/processor-secrets';
import { SandboxProcessor } from '../../processor/sandbox-processor';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { localstripeAvailable, startLocalstripe } from '../../test/localstripe';
import { paidSale } from '../../test/merchant-client';
import { provisionTestMerchant } from '../../test/fixtures';
import { merchantClient } from '../../test/merchant-client';
import { saveProcessorAccount } from './processor-accounts.queries';
import { testMerchantProcessors } from '../../test/merchant-processors';

const available = localstripeAvailable();
const localstripe = available ? await startLocalstripe() : null;
afterAll(() => localstripe?.stop());

const SECRET_KEY = 'sk_test_merchantOwnSecretKey9876';
const sandbox = new SandboxProcessor();
const processors = testMerchantProcessors(() => ({ db: t.database.db, env: t.app.env }), sandbox);
const t = useTestApp({
  env: { ...UNTHROTTLED, PROCESSOR_SECRETS_KEY: randomBytes(32).toString('base64'), STRIPE_API_BASE: localstripe?.url ?? 'http://127.0.0.1:9' },
  processor: sandbox,
  processors,
  merchantName: 'Own Account Shop',
});

const call = (method: 'GET' | 'PUT', body?: unknown) =>
  t.app.request('/merchant/processor', { method, headers: { authorization: `Bearer ${t.merchant.apiKey}` }, ...(body ? { body } : {}) });

describe("a merchant's own processor account", () => {
  it("is read through the caller's transaction, which sees the account it connected before committing", async () => {
    const merchant = await provisionTestMerchant(t.database.db, 'Uncommitted Shop');
    const sealed = sealCredentials(
      { secretKey: 'sk_test_uncommitted1234', webhookSecret: 'whsec_uncommitted' },
      t.app.env.PROCESSOR_SECRETS_KEY!,
      merchant.merchantId,
    );
    const undone = new Error('test: rolled back');
    let seen: string | null = null;
    await expect(
      t.database.db.transaction(async (tx) => {
        await saveProcessorAccount(tx, {
          merchantId: merchant.merchantId,
          kind: 'stripe',
          hint: 'sk_test_…1234',
          sealedCredentials: sealed,
          updatedAt: new Date(),
        });
        seen = (await processorOf({ processor: sandbox, processors }, merchant.merchantId, tx)).kind;
        throw undone;
      }),
    ).rejects.toBe(undone);
    expect(seen).toBe('stripe');
    expect((await processorOf({ processor: sandbox, processors }, merchant.merchantId)).kind).toBe('sandbox');
  });

  it('is the default account until the merchant connects one', async () => {
    const res = await call('GET');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ kind: 'sandbox', account: 'default', hint: null, updatedAt: null });
  });

  it('refuses credentials that are not a Stripe key, naming the field, and keeps nothing', async () => {
    const res = await call('PUT', { kind: 'stripe', secretKey: 'pk_test_publishable' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('secretKey');
    expect((await (await call('GET')).json()) as { account: string }).toMatchObject({ account: 'default' });
  });

  it.skipIf(!available)('connects a Stripe account: answered and audited with a hint only, sealed at rest, and the next payment goes there', async () => {
    const res = await call('PUT', { kind: 'stripe', secretKey: SECRET_KEY, webhookSecret: 'whsec_merchantHookSecret' });
    expect(res.status).toBe(200);
    const answer = await res.text();
    expect(JSON.parse(answer)).toMatchObject({ kind: 'stripe', account: 'own', hint: 'sk_test_…9876' });
    expect(answer).not.toContain('merchantOwnSecretKey');
    const [row] = await t.database.sql<{ sealed_credentials: string }[]>`select sealed_credentials from processor_accounts`;
    expect(row!.sealed_credentials).not.toContain('merchantOwnSecretKey');
    const audit = await t.database.sql<
      { action: string; details: unknown }[]
    >`select action, details from audit_log where action = 'processor_account.connected'`;
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain('merchantOwnSecretKey');
    expect(JSON.stringify(audit)).not.toContain('whsec_merchantHookSecret');

    const sale = await paidSale(t.app, t.client, 1_200);
    const after = (await t.client.get(sale.transactionNumber)).body;
    expect(after.confirmation).toMatchObject({ acquirer: 'stripe', serviceReferenceId: expect.stringMatching(/^pi_/) });

    // Another merchant, with no account of its own, stays on the default.
    const other = await provisionTestMerchant(t.database.db, 'Default Shop');
    const otherSale = await paidSale(t.app, merchantClient(t.app, other), 500);
    expect((await merchantClient(t.app, other).get(otherSale.transactionNumber)).body.confirmation).toMatchObject({ acquirer: 'alpha' });
  });

  it('is used by the next payment on the instance that connected it, which had kept the default in memory', async () => {
    const merchant = await provisionTestMerchant(t.database.db, 'Switching Shop');
    expect((await processorOf({ processor: sandbox, processors }, merchant.merchantId)).kind).toBe('sandbox');
    const res = await t.app.request('/merchant/processor', {
      method: 'PUT',
      headers: { authorization: `Bearer ${merchant.apiKey}` },
      body: { kind: 'stripe', secretKey: 'sk_test_switchingShop5678', webhookSecret: 'whsec_switching' },
    });
    expect(res.status).toBe(200);
    expect((await processorOf({ processor: sandbox, processors }, merchant.merchantId)).kind).toBe('stripe');
  });
});
