import type { ProvisionedMerchant } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../test/app';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { insertPendingTransaction, provisionTestMerchant } from '../test/fixtures';
import { merchantClient } from '../test/merchant-client';
import { RateLimiter } from './rate-limit';

let database: TestDatabase;
let app: TestApp;
let merchant: ProvisionedMerchant;
let transactionNumber: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  merchant = await provisionTestMerchant(database.db);
  transactionNumber = (await insertPendingTransaction(database.db, { merchantId: merchant.merchantId, branchId: merchant.branchId })).transactionNumber;
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

describe('authentication', () => {
  it('answers 401 unauthorized in problem+json, the same for every kind of wrong credential', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer sk_unknownunknownunknownunknown1234' },
      { authorization: `Bearer ${merchant.apiKey}x` },
      { authorization: `Bearer ${merchant.apiKey.slice(0, -1)}` },
      { authorization: `Basic ${Buffer.from(`${merchant.apiKey}:`).toString('base64')}` },
      { authorization: 'Bearer' },
      { authorization: `Bearer ${'a'.repeat(5000)}` },
      { authorization: `Bearer ${merchant.hmacSecret}` },
    ];
    const details = new Set<string>();
    for (const headers of attempts) {
      const res = await app.request(`/transactions/${transactionNumber}`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const body = (await res.json()) as { code: string; detail: string; requestId: string };
      expect(body.code).toBe('unauthorized');
      expect(body.requestId).toBe(res.headers.get('x-request-id'));
      details.add(body.detail);
    }
    expect(details.size).toBe(1);
  });

  it('accepts the key as a Bearer token and, for spec compatibility, as the body field apiKey', async () => {
    expect((await app.request(`/transactions/${transactionNumber}`, { headers: bearer(merchant.apiKey) })).status).toBe(200);
    expect((await app.request(`/transactions/${transactionNumber}`, { headers: { authorization: `bearer   ${merchant.apiKey}` } })).status).toBe(200);
    // The spec's body field: a POST authenticated only by `apiKey` in its body reaches the rules (here a sale
    // cannot be voided: 409), while a wrong key there is 401 like any other.
    const byBody = await app.request('/transactions/void', { body: { transactionNumber, apiKey: merchant.apiKey } });
    expect(byBody.status).toBe(409);
    expect(((await byBody.json()) as { code: string }).code).toBe('not_an_authorization');
    const wrongBody = await app.request('/transactions/void', { body: { transactionNumber, apiKey: `${merchant.apiKey}x` } });
    expect(wrongBody.status).toBe(401);
  });

  it('refuses a known device ID where no device may act with 403 credential_not_allowed, sent in the body as in the header', async () => {
    const refund = `/transactions/${transactionNumber}/refund`;
    for (const init of [{ body: { deviceId: merchant.deviceId } }, { headers: bearer(merchant.deviceId), body: {} }]) {
      const res = await app.request(refund, init);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('credential_not_allowed');
    }
    // A device ID nobody issued is no credential at all, wherever it is sent.
    const unknown = await app.request(refund, { body: { deviceId: 'dev_unknownunknownunknownunknown1234' } });
    expect(unknown.status).toBe(401);
  });

  it('refuses a client ID on a merchant endpoint with 403 client_id_not_allowed', async () => {
    const res = await app.request(`/transactions/${transactionNumber}`, { headers: bearer(merchant.clientId) });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('client_id_not_allowed');
  });

  it('revoked keys stop working at once, even one just used (and so kept in memory) and revoked by hand in SQL', async () => {
    const m = await provisionTestMerchant(database.db);
    const own = await merchantClient(app, m).init({ amount: 1, currency: 'USD' });
    expect(own.status).toBe(200);
    const read = () => app.request(`/transactions/${own.body.TransactionNumber}`, { headers: bearer(m.apiKey) });
    expect((await read()).status).toBe(200);
    await database.sql`update api_credentials set revoked_at = now() where merchant_id = ${m.merchantId} and kind = 'merchant_key'`;
    // The trigger's announcement arrives after the commit, within milliseconds; the cache keeps keys for 5 s.
    await expect.poll(async () => (await read()).status, { timeout: 1_000, interval: 20 }).toBe(401);
  });
});

describe('rate limiting', () => {
  it('answers 429 rate_limited with Retry-After once a credential spends its burst, and other credentials are unaffected', async () => {
    let now = 0;
    const limited = await startTestApp(database, { limiter: new RateLimiter(1, 3, () => now) });
    try {
      const other = await provisionTestMerchant(database.db);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await limited.request(`/transactions/${transactionNumber}`, { headers: bearer(merchant.apiKey) })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = await limited.request(`/transactions/${transactionNumber}`, { headers: bearer(merchant.apiKey) });
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await refused.json()) as { code: string }).code).toBe('rate_limited');

      expect((await limited.request(`/transactions/${transactionNumber}`, { headers: bearer(other.apiKey) })).status).toBe(404);
      now += 1000;
      expect((await limited.request(`/transactions/${transactionNumber}`, { headers: bearer(merchant.apiKey) })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('limits guessing: failed attempts from one address spend its budget too', async () => {
    const now = 0;
    const limited = await startTestApp(database, { limiter: new RateLimiter(1, 2, () => now) });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await limited.request(`/transactions/${transactionNumber}`, { headers: bearer(`sk_guess${i}guessguessguessguess`) })).status);
      }
      expect(statuses).toEqual([401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
