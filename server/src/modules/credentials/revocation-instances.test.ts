import { endpointRequest, type CreatedCredential, type CredentialList, type SdkSession } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../../test/app';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { provisionTestMerchant } from '../../test/fixtures';
import { UNTHROTTLED } from '../../test/harness';

/**
 * Two instances of the service on one database, each keeping live credentials in memory for the longest time the
 * configuration allows (5 minutes): a change made through one is refused by the other long before that, because
 * the trigger on api_credentials announces it and every instance forgets it.
 */
let database: TestDatabase;
let one: TestApp;
let other: TestApp;
beforeAll(async () => {
  database = await createTestDatabase();
  const env = { ...UNTHROTTLED, CREDENTIAL_CACHE_S: '300' };
  one = await startTestApp(database, { env });
  other = await startTestApp(database, { env });
});
afterAll(async () => {
  await one?.close();
  await other?.close();
  await database?.drop();
});

const status = (app: TestApp, key: string) => app.request('/transactions/TNOSUCHTHING0000', { headers: bearer(key) }).then((res) => res.status);

/** Asks `check` every 20 ms until it holds or `withinMs` has passed; answers whether it held. */
async function holdsWithin(withinMs: number, check: () => Promise<boolean>): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    if (await check()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function call<T>(app: TestApp, key: string, operationId: string, params: Record<string, string> = {}, body?: unknown) {
  const { method, path } = endpointRequest(operationId, params);
  const res = await app.request(path, { method, headers: bearer(key), ...(body !== undefined ? { body } : {}) });
  return { status: res.status, body: (await res.json()) as T };
}

describe('a change made on one instance', () => {
  it('a key revoked through one instance is refused by the other within a second, though it had the key in memory', async () => {
    const merchant = await provisionTestMerchant(database.db);
    const created = await call<CreatedCredential>(one, merchant.apiKey, 'createCredential', {}, { kind: 'merchant_key' });
    expect(created.status).toBe(201);
    const key = created.body.value;
    // The other instance authenticates the new key at once, and keeps it in memory from now on.
    expect(await status(other, key)).toBe(404);
    expect(await status(other, key)).toBe(404);

    const revoked = await call(one, merchant.apiKey, 'revokeCredential', { credentialId: created.body.credential.credentialId }, {});
    expect(revoked.status).toBe(200);
    expect(await status(one, key)).toBe(401);
    expect(await holdsWithin(1000, async () => (await status(other, key)) === 401)).toBe(true);
    // The key that revoked it still works on both.
    expect(await status(other, merchant.apiKey)).toBe(404);
  });

  it("an origin removed through one instance is refused by the other's session endpoint at once", async () => {
    const merchant = await provisionTestMerchant(database.db, 'Origins', ['https://shop.example.com', 'https://old.example.com']);
    const startSession = (app: TestApp, origin: string) =>
      app.request(endpointRequest('createSdkSession').path, { headers: { origin }, body: { clientId: merchant.clientId, mode: 'sandbox' } });
    expect((await startSession(other, 'https://old.example.com')).status).toBe(200);
    const listed = await call<CredentialList>(one, merchant.apiKey, 'listCredentials');
    const clientId = listed.body.credentials.find((c) => c.kind === 'client')!.credentialId;
    const removed = await call(one, merchant.apiKey, 'removeAllowedOrigin', { credentialId: clientId }, { origin: 'https://old.example.com' });
    expect(removed.status).toBe(200);
    const refused = await startSession(other, 'https://old.example.com');
    expect(refused.status).toBe(403);
    const session = await startSession(other, 'https://shop.example.com');
    expect(((await session.json()) as SdkSession).paymentMethods).toEqual(['card', 'paypal', 'applepay', 'googlepay']);
  });
});
