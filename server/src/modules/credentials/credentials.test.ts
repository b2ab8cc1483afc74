import {
  endpointRequest,
  type AuditLogPage,
  type CreatedCredential,
  type Credential,
  type CredentialList,
  type ProblemDetails,
  type SdkSession,
} from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../test/app';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { codeOf } from '../../test/merchant-client';

const t = useTestApp({ env: UNTHROTTLED, origins: ['https://shop.example.com'] });

/** One endpoint of the table, called with `key` (the merchant's API key unless another is given). */
async function call<T>(
  operationId: string,
  options: { params?: Record<string, string>; body?: unknown; key?: string; headers?: Record<string, string>; query?: string } = {},
) {
  const { method, path } = endpointRequest(operationId, options.params ?? {});
  const res = await t.app.request(`${path}${options.query ?? ''}`, {
    method,
    headers: { ...bearer(options.key ?? t.merchant.apiKey), ...options.headers },
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  return { status: res.status, body: (await res.json()) as T };
}

const list = async (key?: string) => (await call<CredentialList>('listCredentials', key ? { key } : {})).body.credentials;
const byHint = (credentials: Credential[], value: string) => credentials.find((c) => c.hint === `${value.slice(0, value.indexOf('_') + 1)}…${value.slice(-4)}`);
const startSession = (clientId: string, origin: string) =>
  t.app.request(endpointRequest('createSdkSession').path, { headers: { origin }, body: { clientId, mode: 'sandbox' } });
const getTransaction = (key: string) => t.app.request('/transactions/TNOSUCHTHING0000', { headers: bearer(key) });
const auditLog = async (query = '') => (await call<AuditLogPage>('listAuditLog', { query })).body;

describe('listing credentials', () => {
  it("shows every credential by its id, kind, hint and scope, a client ID's origins, and never a key", async () => {
    const res = await call<CredentialList>('listCredentials');
    expect(res.status).toBe(200);
    const credentials = res.body.credentials;
    expect(credentials.map((c) => c.kind).sort()).toEqual(['branch_key', 'client', 'device', 'merchant_key']);
    const text = JSON.stringify(res.body);
    for (const value of [t.merchant.apiKey, t.merchant.branchApiKey, t.merchant.clientId, t.merchant.deviceId, t.merchant.hmacSecret]) {
      expect(text).not.toContain(value);
      expect(text).not.toContain(value.slice(3, 15));
    }
    const merchantKey = byHint(credentials, t.merchant.apiKey)!;
    expect(merchantKey).toMatchObject({ kind: 'merchant_key', branchId: null, revokedAt: null });
    expect(merchantKey.allowedOrigins).toBeUndefined();
    expect(byHint(credentials, t.merchant.branchApiKey)).toMatchObject({ kind: 'branch_key', branchId: t.merchant.branchId });
    expect(byHint(credentials, t.merchant.clientId)).toMatchObject({ kind: 'client', allowedOrigins: ['https://shop.example.com'] });
  });

  it('is for the merchant API key only: a branch key, a device ID and a client ID are refused', async () => {
    expect(await call('listCredentials', { key: t.merchant.branchApiKey })).toMatchObject({ status: 403, body: { code: 'credential_not_allowed' } });
    expect(await call('listCredentials', { key: t.merchant.deviceId })).toMatchObject({ status: 403, body: { code: 'credential_not_allowed' } });
    expect(await call('listCredentials', { key: t.merchant.clientId })).toMatchObject({ status: 403, body: { code: 'client_id_not_allowed' } });
    expect(await call('createCredential', { key: t.merchant.branchApiKey, body: { kind: 'branch_key', branchId: t.merchant.branchId } })).toMatchObject({
      status: 403,
      body: { code: 'credential_not_allowed' },
    });
  });
});

describe('the calling key itself (GET /merchant/credentials/current)', () => {
  it('tells a merchant key and a branch key their own id, kind and scope, as the listing shows them, and never a key', async () => {
    const listed = await list();
    for (const [key, kind, branchId] of [
      [t.merchant.apiKey, 'merchant_key', null],
      [t.merchant.branchApiKey, 'branch_key', t.merchant.branchId],
    ] as const) {
      const res = await call<Credential>('getCurrentCredential', { key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(byHint(listed, key));
      expect(res.body).toMatchObject({ kind, branchId, revokedAt: null });
      const text = JSON.stringify(res.body);
      for (const secret of [t.merchant.apiKey, t.merchant.branchApiKey, t.merchant.hmacSecret]) expect(text).not.toContain(secret.slice(3, 15));
    }
  });

  it('lets a key be replaced without its id in hand: create, switch, revoke the old one by the id it told', async () => {
    const created = await call<CreatedCredential>('createCredential', { body: { kind: 'merchant_key' } });
    const old = await call<Credential>('getCurrentCredential', { key: created.body.value });
    const replacement = await call<CreatedCredential>('createCredential', { key: created.body.value, body: { kind: 'merchant_key' } });
    const revoked = await call<Credential>('revokeCredential', { key: replacement.body.value, params: { credentialId: old.body.credentialId } });
    expect(revoked).toMatchObject({ status: 200, body: { credentialId: created.body.credential.credentialId } });
    expect((await getTransaction(created.body.value)).status).toBe(401);
  });

  it('is for API keys: a device ID and a client ID are refused', async () => {
    expect(await call('getCurrentCredential', { key: t.merchant.deviceId })).toMatchObject({ status: 403, body: { code: 'credential_not_allowed' } });
    expect(await call('getCurrentCredential', { key: t.merchant.clientId })).toMatchObject({ status: 403, body: { code: 'client_id_not_allowed' } });
  });
});

describe('creating a credential', () => {
  it('answers a new merchant key once, which works at once and is listed by its hint', async () => {
    const created = await call<CreatedCredential>('createCredential', { body: { kind: 'merchant_key' } });
    expect(created.status).toBe(201);
    expect(created.body.value).toMatch(/^sk_[A-Za-z0-9]{32}$/);
    expect(created.body.credential).toMatchObject({ kind: 'merchant_key', branchId: null, revokedAt: null, hint: `sk_…${created.body.value.slice(-4)}` });
    expect((await getTransaction(created.body.value)).status).toBe(404); // authenticated: the transaction does not exist
    expect(byHint(await list(), created.body.value)?.credentialId).toBe(created.body.credential.credentialId);
  });

  it('a branch key acts for its branch; a branch of another merchant or none is refused', async () => {
    const created = await call<CreatedCredential>('createCredential', { body: { kind: 'branch_key', branchId: t.merchant.branchId } });
    expect(created.status).toBe(201);
    expect(created.body.value).toMatch(/^bk_/);
    expect(created.body.credential.branchId).toBe(t.merchant.branchId);
    expect((await getTransaction(created.body.value)).status).toBe(404);

    const missing = await call<ProblemDetails>('createCredential', { body: { kind: 'branch_key' } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ path: 'branchId', message: 'is required for a branch key' }]);
    const [other] = await t.database.sql<{ id: string }[]>`insert into branches (merchant_id, name)
      select id, 'Elsewhere' from merchants where id <> ${t.merchant.merchantId} limit 1 returning id`;
    const foreign = other?.id ?? '00000000-0000-4000-8000-000000000000';
    const refused = await call<ProblemDetails>('createCredential', { body: { kind: 'branch_key', branchId: foreign } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path: 'branchId', message: 'is not a branch of this merchant' }]);
  });

  it('a client ID with its allowed origins starts sessions from them only', async () => {
    const created = await call<CreatedCredential>('createCredential', {
      body: { kind: 'client', allowedOrigins: ['https://new.example.com/', 'https://new.example.com'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.credential.allowedOrigins).toEqual(['https://new.example.com']);
    expect((await startSession(created.body.value, 'https://new.example.com')).status).toBe(200);
    expect(codeOf(await (await startSession(created.body.value, 'https://shop.example.com')).json())).toBe('origin_not_allowed');
  });

  it.each([
    [{ kind: 'device' }, 'kind'],
    [{ kind: 'client', allowedOrigins: ['https://x.example.com/path'] }, 'allowedOrigins.0'],
    [{ kind: 'merchant_key', allowedOrigins: ['https://x.example.com'] }, 'allowedOrigins'],
    [{ kind: 'merchant_key', branchId: '00000000-0000-4000-8000-000000000000' }, 'branchId'],
  ])('refuses %j naming %s', async (body, path) => {
    const res = await call<ProblemDetails>('createCredential', { body });
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e) => e.path)).toEqual([path]);
  });

  it('replays the same answer under the same Idempotency-Key, and the idempotency store never holds the key in the clear', async () => {
    const headers = { 'idempotency-key': 'create-key-once' };
    const first = await call<CreatedCredential>('createCredential', { body: { kind: 'merchant_key' }, headers });
    const again = await call<CreatedCredential>('createCredential', { body: { kind: 'merchant_key' }, headers });
    expect(again.body).toEqual(first.body);
    const keys = (await list()).filter((c) => c.hint === first.body.credential.hint);
    expect(keys).toHaveLength(1);
    const stored = await t.database.sql<{ row: string }[]>`select row_to_json(k)::text as row from idempotency_keys k`;
    const text = stored.map((s) => s.row).join('\n');
    expect(text).not.toContain(first.body.value);
    expect(text).not.toContain(first.body.value.slice(3, 19));
  });
});

describe('revoking a credential', () => {
  it('refuses the revoked key at once, keeps it listed with its time, and changes nothing when repeated', async () => {
    const created = await call<CreatedCredential>('createCredential', { body: { kind: 'merchant_key' } });
    const key = created.body.value;
    expect((await getTransaction(key)).status).toBe(404); // now in this instance's credential cache
    const id = created.body.credential.credentialId;
    const revoked = await call<Credential>('revokeCredential', { params: { credentialId: id }, body: {} });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    expect((await getTransaction(key)).status).toBe(401);
    expect(byHint(await list(), key)?.revokedAt).toBe(revoked.body.revokedAt);

    const entries = (await auditLog()).data.length;
    const again = await call<Credential>('revokeCredential', { params: { credentialId: id }, body: {} });
    expect(again).toMatchObject({ status: 200, body: { revokedAt: revoked.body.revokedAt } });
    expect((await auditLog()).data).toHaveLength(entries);
  });

  it('a client ID revoked: no new session starts with it, and its open sessions can no longer pay', async () => {
    const created = await call<CreatedCredential>('createCredential', { body: { kind: 'client', allowedOrigins: ['https://gone.example.com'] } });
    const opened = await startSession(created.body.value, 'https://gone.example.com');
    expect(opened.status).toBe(200);
    const session = (await opened.json()) as SdkSession;
    await call('revokeCredential', { params: { credentialId: created.body.credential.credentialId }, body: {} });
    expect((await startSession(created.body.value, 'https://gone.example.com')).status).toBe(401);
    const paid = await t.app.request(endpointRequest('submitSdkPayment', { sessionId: session.sessionId }).path, {
      headers: { ...bearer(session.sessionToken), origin: 'https://gone.example.com' },
      body: { method: 'paypal', amount: 500, currency: 'USD' },
    });
    expect(paid.status).toBe(401);
  });

  it('refuses the key revoking itself, an unknown id, and another merchant’s credential', async () => {
    const own = byHint(await list(), t.merchant.apiKey)!;
    const self = await call<ProblemDetails>('revokeCredential', { params: { credentialId: own.credentialId }, body: {} });
    expect(self).toMatchObject({ status: 409, body: { code: 'own_credential_not_revocable' } });
    expect((await getTransaction(t.merchant.apiKey)).status).toBe(404);

    expect(await call('revokeCredential', { params: { credentialId: '00000000-0000-4000-8000-000000000000' }, body: {} })).toMatchObject({ status: 404 });
    expect(await call('revokeCredential', { params: { credentialId: 'sk_not_an_id' }, body: {} })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
    const [foreign] = await t.database.sql<{ id: string }[]>`select id from api_credentials where merchant_id <> ${t.merchant.merchantId} limit 1`;
    if (foreign) {
      expect(await call('revokeCredential', { params: { credentialId: foreign.id }, body: {} })).toMatchObject({ status: 404 });
      const [still] = await t.database.sql<{ revoked_at: Date | null }[]>`select revoked_at from api_credentials where id = ${foreign.id}`;
      expect(still!.revoked_at).toBeNull();
    }
  });
});

describe("a client ID's allowed origins", () => {
  it('an added origin may start sessions at once; a removed one is refused at once', async () => {
    const clientId = byHint(await list(), t.merchant.clientId)!.credentialId;
    expect(codeOf(await (await startSession(t.merchant.clientId, 'https://typo.example.com')).json())).toBe('origin_not_allowed');

    const added = await call<Credential>('addAllowedOrigin', { params: { credentialId: clientId }, body: { origin: 'https://typo.example.com/' } });
    expect(added).toMatchObject({ status: 200, body: { allowedOrigins: ['https://shop.example.com', 'https://typo.example.com'] } });
    const session = await startSession(t.merchant.clientId, 'https://typo.example.com');
    expect(session.status).toBe(200);
    expect(((await session.json()) as SdkSession).sessionId).toBeTruthy();
    // Added twice: nothing changes.
    const twice = await call<Credential>('addAllowedOrigin', { params: { credentialId: clientId }, body: { origin: 'https://typo.example.com' } });
    expect(twice.body.allowedOrigins).toEqual(['https://shop.example.com', 'https://typo.example.com']);

    const removed = await call<Credential>('removeAllowedOrigin', { params: { credentialId: clientId }, body: { origin: 'https://typo.example.com' } });
    expect(removed).toMatchObject({ status: 200, body: { allowedOrigins: ['https://shop.example.com'] } });
    expect(codeOf(await (await startSession(t.merchant.clientId, 'https://typo.example.com')).json())).toBe('origin_not_allowed');
    expect((await startSession(t.merchant.clientId, 'https://shop.example.com')).status).toBe(200);
  });

  it.each(['https://shop.example.com/checkout', 'shop.example.com', 'ftp://shop.example.com', 'https://shop.example.com?x=1'])(
    'refuses %s: an origin is scheme, host and port',
    async (origin) => {
      const clientId = byHint(await list(), t.merchant.clientId)!.credentialId;
      const res = await call<ProblemDetails>('addAllowedOrigin', { params: { credentialId: clientId }, body: { origin } });
      expect(res.status).toBe(400);
      expect(res.body.errors?.[0]?.path).toBe('origin');
    },
  );

  it('refuses origins on a key (409 not_a_client_id) and on a revoked client ID (409 credential_revoked)', async () => {
    const key = byHint(await list(), t.merchant.branchApiKey)!.credentialId;
    expect(await call('addAllowedOrigin', { params: { credentialId: key }, body: { origin: 'https://a.example.com' } })).toMatchObject({
      status: 409,
      body: { code: 'not_a_client_id' },
    });
    const created = await call<CreatedCredential>('createCredential', { body: { kind: 'client' } });
    await call('revokeCredential', { params: { credentialId: created.body.credential.credentialId }, body: {} });
    expect(
      await call('addAllowedOrigin', { params: { credentialId: created.body.credential.credentialId }, body: { origin: 'https://a.example.com' } }),
    ).toMatchObject({ status: 409, body: { code: 'credential_revoked' } });
  });
});
