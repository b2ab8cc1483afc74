import { Writable } from 'node:stream';
import type { ProvisionedMerchant } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../http/rate-limit';
import { createLogger } from '../logger';
import { bearer } from '../test/app';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { provisionTestMerchant } from '../test/fixtures';
import { merchantClient } from '../test/merchant-client';
import type { SessionGrant } from './session-token';
import { isSubscribed, isUpdate, openSocket, PUBLIC_BASE_URL, startRealtimeApp, UpgradeRefused, upgradeStatus, type RealtimeTestApp } from './testing';

let database: TestDatabase;
let app: RealtimeTestApp;
let merchant: ProvisionedMerchant;
const logLines: string[] = [];
let sessionGrant: SessionGrant | null = null;

beforeAll(async () => {
  database = await createTestDatabase();
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  app = await startRealtimeApp(database, {
    logger: createLogger({ level: 'info', destination }),
    resolveSessionToken: async (_db, token) => (token === 'sess_valid_token_for_tests' ? sessionGrant : null),
  });
  merchant = await provisionTestMerchant(database.db, 'Upgrade merchant', ['https://shop.example']);
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe('authenticating the upgrade', () => {
  it('refuses missing and unknown credentials with 401', async () => {
    expect(await upgradeStatus(app)).toBe(401);
    expect(await upgradeStatus(app, { headers: bearer('sk_ThisKeyDoesNotExistAtAllAnywhere000') })).toBe(401);
    expect(await upgradeStatus(app, { headers: { authorization: 'Basic abc' } })).toBe(401);
    expect(await upgradeStatus(app, { query: { deviceId: 'dev_nope' } })).toBe(401);
  });

  it('accepts merchant and branch keys in Authorization: Bearer, without an Origin', async () => {
    expect(await upgradeStatus(app, { headers: bearer(merchant.apiKey) })).toBe(101);
    expect(await upgradeStatus(app, { headers: bearer(merchant.branchApiKey) })).toBe(101);
  });

  it('refuses credentials of another kind (403) and more than one credential (400)', async () => {
    expect(await upgradeStatus(app, { headers: bearer(merchant.clientId) })).toBe(403);
    expect(await upgradeStatus(app, { headers: bearer(merchant.deviceId) })).toBe(403);
    expect(await upgradeStatus(app, { query: { deviceId: merchant.apiKey } })).toBe(403);
    expect(await upgradeStatus(app, { headers: bearer(merchant.apiKey), query: { deviceId: merchant.deviceId } })).toBe(400);
  });

  it('accepts a device ID without an Origin or from the service itself, not from another site', async () => {
    expect(await upgradeStatus(app, { query: { deviceId: merchant.deviceId } })).toBe(101);
    expect(await upgradeStatus(app, { query: { deviceId: merchant.deviceId }, origin: PUBLIC_BASE_URL })).toBe(101);
    expect(await upgradeStatus(app, { query: { deviceId: merchant.deviceId }, origin: 'https://evil.example' })).toBe(403);
  });

  it('answers 404 to upgrades of any other path', async () => {
    expect(await upgradeStatus(app, { headers: bearer(merchant.apiKey) }, '/ws/other')).toBe(404);
    expect(await upgradeStatus(app, { headers: bearer(merchant.apiKey) }, '/socket')).toBe(404);
  });

  it('refuses SDK session tokens until sessions exist, and checks the Origin against the client ID', async () => {
    expect(await upgradeStatus(app, { query: { session: 'sess_unknown_token_xxxxxxxx' }, origin: 'https://shop.example' })).toBe(401);
    expect(await upgradeStatus(app, { query: { session: 'sess_valid_token_for_tests' } })).toBe(403);

    const created = await merchantClient(app, merchant).init({ amount: 900, isCent: true, currency: 'USD' });
    const [row] = await database.sql<{ id: string }[]>`select id from transactions where transaction_number = ${created.body.TransactionNumber}`;
    sessionGrant = {
      merchantId: merchant.merchantId,
      transactionId: row!.id,
      transactionNumber: created.body.TransactionNumber,
      allowedOrigins: ['https://shop.example'],
    };
    expect(await upgradeStatus(app, { query: { session: 'sess_valid_token_for_tests' }, origin: 'https://evil.example' })).toBe(403);
    const socket = await openSocket(app, { query: { session: 'sess_valid_token_for_tests' }, origin: 'https://shop.example' });
    socket.send({ type: 'subscribe', transactionNumber: created.body.TransactionNumber, afterSequence: 0 });
    await socket.next(isSubscribed);
    expect((await socket.next(isUpdate)).transaction.paymentDetails).toBeNull();
    await socket.close();
  });

  it('rate limits upgrades: failed attempts spend the address budget (429 with Retry-After)', async () => {
    const limited = await startRealtimeApp(database, { limiter: new RateLimiter(0.01, 2) });
    try {
      expect(await upgradeStatus(limited, { headers: bearer('sk_wrong1') })).toBe(401);
      expect(await upgradeStatus(limited, { headers: bearer('sk_wrong2') })).toBe(401);
      const refused = await openSocket(limited, { headers: bearer(merchant.apiKey) }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(UpgradeRefused);
      expect((refused as UpgradeRefused).status).toBe(429);
      expect(Number((refused as UpgradeRefused).headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('refuses upgrades past the connection cap with 503 and Retry-After, and accepts again once one closes', async () => {
    const capped = await startRealtimeApp(database, { realtime: { maxConnections: 2 } });
    try {
      const first = await openSocket(capped, { headers: bearer(merchant.apiKey) });
      const second = await openSocket(capped, { headers: bearer(merchant.apiKey) });
      const refused = await openSocket(capped, { headers: bearer(merchant.apiKey) }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(UpgradeRefused);
      expect((refused as UpgradeRefused).status).toBe(503);
      expect((refused as UpgradeRefused).headers['retry-after']).toBe('5');
      await first.close();
      await expect.poll(() => upgradeStatus(capped, { headers: bearer(merchant.apiKey) })).toBe(101);
      await second.close();
    } finally {
      await capped.close();
    }
  });

  it('never logs the credentials carried by the upgrade', async () => {
    const created = await merchantClient(app, merchant).init({ amount: 100, isCent: true, currency: 'USD' });
    const linkId = created.body.transactionPage.qrURL.split('/pay/')[1]!;
    expect(await upgradeStatus(app, { query: { link: linkId }, origin: PUBLIC_BASE_URL })).toBe(101);
    expect(await upgradeStatus(app, { query: { link: linkId } })).toBe(403);
    expect(await upgradeStatus(app, { query: { deviceId: merchant.deviceId } })).toBe(101);
    expect(await upgradeStatus(app, { headers: bearer(merchant.apiKey) })).toBe(101);
    const log = logLines.join('');
    expect(log).toContain('websocket connected');
    expect(log).toContain('websocket: upgrade refused');
    for (const secret of [linkId, merchant.deviceId, merchant.apiKey, merchant.branchApiKey, 'sess_valid_token_for_tests']) expect(log).not.toContain(secret);
  });
});
