import { AuditLogPageSchema, endpointRequest, type AuditLogPage, type CreatedCredential, type CredentialList, type RolledWebhookSecret } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../test/app';
import { provisionTestMerchant } from '../../test/fixtures';
import { useTestApp, UNTHROTTLED } from '../../test/harness';

const t = useTestApp({ env: UNTHROTTLED });

async function call<T>(apiKey: string, operationId: string, params: Record<string, string> = {}, body?: unknown, query = '') {
  const { method, path } = endpointRequest(operationId, params);
  const res = await t.app.request(`${path}${query}`, { method, headers: bearer(apiKey), ...(body !== undefined ? { body } : {}) });
  return { status: res.status, body: (await res.json()) as T };
}

/** What must never appear in the log: each secret whole, and a long run of its random part. */
function expectNoSecretIn(text: string, secrets: string[]) {
  for (const secret of secrets) {
    expect(text).not.toContain(secret);
    const random = secret.slice(secret.indexOf('_') + 1);
    expect(text).not.toContain(random.slice(0, 12));
    expect(text).not.toContain(random.slice(-12));
  }
}

describe('the audit log', () => {
  it('records who did what and when for every change, newest first, and never a key or a secret', async () => {
    const merchant = await provisionTestMerchant(t.database.db, 'Audited', ['https://shop.example.com']);
    const key = (await call<CredentialList>(merchant.apiKey, 'listCredentials')).body.credentials.find((c) => c.kind === 'merchant_key')!;
    const clientId = (await call<CredentialList>(merchant.apiKey, 'listCredentials')).body.credentials.find((c) => c.kind === 'client')!;

    const created = await call<CreatedCredential>(merchant.apiKey, 'createCredential', {}, { kind: 'branch_key', branchId: merchant.branchId });
    const client = await call<CreatedCredential>(merchant.apiKey, 'createCredential', {}, { kind: 'client', allowedOrigins: ['https://a.example.com'] });
    await call(merchant.apiKey, 'addAllowedOrigin', { credentialId: clientId.credentialId }, { origin: 'https://b.example.com' });
    await call(merchant.apiKey, 'removeAllowedOrigin', { credentialId: clientId.credentialId }, { origin: 'https://b.example.com' });
    await call(merchant.apiKey, 'revokeCredential', { credentialId: created.body.credential.credentialId }, {});
    const rolled = await call<RolledWebhookSecret>(merchant.apiKey, 'rollWebhookSecret', {}, { overlapSeconds: 60 });
    await call(merchant.apiKey, 'updatePaymentMethods', {}, { paymentMethods: ['paypal', 'card'] });
    const settings = await call(
      merchant.apiKey,
      'updateMerchantSettings',
      {},
      { callbackURL: 'https://shop.example.com/hooks?token=hook-secret-123', callbackMethod: 'GET' },
    );
    expect(settings.status).toBe(200);

    const page = await call<AuditLogPage>(merchant.apiKey, 'listAuditLog');
    expect(page.status).toBe(200);
    AuditLogPageSchema.parse(page.body);
    const actor = { kind: 'merchant_key', credentialId: key.credentialId, hint: key.hint };
    expect(page.body.data.map((e) => [e.action, e.target?.credentialId ?? null, e.details])).toEqual([
      ['merchant_settings.updated', null, { branchId: null, callbackOrigin: 'https://shop.example.com', callbackMethod: 'GET' }],
      ['payment_methods.updated', null, { paymentMethods: ['card', 'paypal'], previousPaymentMethods: ['card', 'paypal', 'applepay', 'googlepay'] }],
      ['webhook_secret.rolled', null, { overlapSeconds: 60, previousSecretValidUntil: rolled.body.previousSecretValidUntil }],
      ['credential.revoked', created.body.credential.credentialId, {}],
      ['allowed_origin.removed', clientId.credentialId, { origin: 'https://b.example.com' }],
      ['allowed_origin.added', clientId.credentialId, { origin: 'https://b.example.com' }],
      ['credential.created', client.body.credential.credentialId, { branchId: null, allowedOrigins: ['https://a.example.com'] }],
      ['credential.created', created.body.credential.credentialId, { branchId: merchant.branchId }],
    ]);
    for (const entry of page.body.data) expect(entry.actor).toEqual(actor);
    expect(page.body.data[3]!.target).toEqual({ credentialId: created.body.credential.credentialId, kind: 'branch_key', hint: created.body.credential.hint });
    const times = page.body.data.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(page.body).toMatchObject({ hasMore: false, nextCursor: null });

    // Nothing in the answer or in the table holds a key or a secret, old or new.
    const secrets = [
      merchant.apiKey,
      merchant.branchApiKey,
      merchant.clientId,
      merchant.deviceId,
      merchant.hmacSecret,
      created.body.value,
      client.body.value,
      rolled.body.hmacSecret,
      'hook-secret-123',
    ];
    expectNoSecretIn(JSON.stringify(page.body), secrets);
    const rows = await t.database.sql<{ row: string }[]>`select row_to_json(a)::text as row from audit_log a`;
    expectNoSecretIn(rows.map((r) => r.row).join('\n'), secrets);
  });

  it("pages with limit and startingAfter, shows only the caller's merchant, and names a bad parameter", async () => {
    const merchant = await provisionTestMerchant(t.database.db);
    const other = await provisionTestMerchant(t.database.db);
    for (let i = 0; i < 5; i++) await call(merchant.apiKey, 'createCredential', {}, { kind: 'client' });
    await call(other.apiKey, 'createCredential', {}, { kind: 'client' });

    const first = await call<AuditLogPage>(merchant.apiKey, 'listAuditLog', {}, undefined, '?limit=2');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const second = await call<AuditLogPage>(merchant.apiKey, 'listAuditLog', {}, undefined, `?limit=2&startingAfter=${first.body.nextCursor}`);
    const third = await call<AuditLogPage>(merchant.apiKey, 'listAuditLog', {}, undefined, `?limit=2&startingAfter=${second.body.nextCursor}`);
    expect(third.body).toMatchObject({ hasMore: false, nextCursor: null });
    const ids = [...first.body.data, ...second.body.data, ...third.body.data].map((e) => e.id);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((a, b) => b - a));
    expect((await call<AuditLogPage>(other.apiKey, 'listAuditLog')).body.data).toHaveLength(1);

    for (const [query, path] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?startingAfter=abc', 'startingAfter'],
      // An unknown parameter is named at its own path.
      ['?sort=asc', 'sort'],
    ]) {
      const bad = await call<{ code: string; errors: { path: string }[] }>(merchant.apiKey, 'listAuditLog', {}, undefined, query);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('validation_failed');
      expect(bad.body.errors[0]!.path).toBe(path);
    }
    expect((await call(merchant.branchApiKey, 'listAuditLog')).status).toBe(403);
  });
});
