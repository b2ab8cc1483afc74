import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../http/rate-limit';
import { createLogger } from '../logger';
import { bearer } from '../test/app';
import type { SessionGrant } from './session-token';
import { isSubscribed, isUpdate, openSocket, PUBLIC_BASE_URL, startRealtimeApp, UpgradeRefused, upgradeStatus, useRealtimeApp } from './testing';

const logLines: string[] = [];
let sessionGrant: SessionGrant | null = null;
const t = useRealtimeApp({
  logger: createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  }),
  resolveSessionToken: async (_db, token) => (token === 'sess_valid_token_for_tests' ? sessionGrant : null),
  merchantName: 'Upgrade merchant',
  origins: ['https://shop.example'],
});

describe('authenticating the upgrade', () => {
  it('refuses missing and unknown credentials with 401', async () => {
    expect(await upgradeStatus(t.app)).toBe(401);
    expect(await upgradeStatus(t.app, { headers: bearer('sk_ThisKeyDoesNotExistAtAllAnywhere000') })).toBe(401);
    expect(await upgradeStatus(t.app, { headers: { authorization: 'Basic abc' } })).toBe(401);
    expect(await upgradeStatus(t.app, { query: { deviceId: 'dev_nope' } })).toBe(401);
  });

  it('accepts merchant and branch keys in Authorization: Bearer, without an Origin', async () => {
    expect(await upgradeStatus(t.app, { headers: bearer(t.merchant.apiKey) })).toBe(101);
    expect(await upgradeStatus(t.app, { headers: bearer(t.merchant.branchApiKey) })).toBe(101);
  });

  it('refuses credentials of another kind (403) and more than one credential (400)', async () => {
    expect(await upgradeStatus(t.app, { headers: bearer(t.merchant.clientId) })).toBe(403);
    expect(await upgradeStatus(t.app, { headers: bearer(t.merchant.deviceId) })).toBe(403);
    expect(await upgradeStatus(t.app, { query: { deviceId: t.merchant.apiKey } })).toBe(403);
    expect(await upgradeStatus(t.app, { headers: bearer(t.merchant.apiKey), query: { deviceId: t.merchant.deviceId } })).toBe(400);
  });

  it('accepts a device ID without an Origin or from the service itself, not from another site', async () => {
    expect(await upgradeStatus(t.app, { query: { deviceId: t.merchant.deviceId } })).toBe(101);
    expect(await upgradeStatus(t.app, { query: { deviceId: t.merchant.deviceId }, origin: PUBLIC_BASE_URL })).toBe(101);
    expect(await upgradeStatus(t.app, { query: { deviceId: t.merchant.deviceId }, origin: 'https://evil.example' })).toBe(403);
  });

  it('answers 404 to upgrades of any other path', async () => {
    expect(await upgradeStatus(t.app, { headers: bearer(t.merchant.apiKey) }, '/ws/other')).toBe(404);
    expect(await upgradeStatus(t.app, { headers: bearer(t.merchant.apiKey) }, '/socket')).toBe(404);
  });

  it('refuses SDK session tokens until sessions exist, and checks the Origin against the client ID', async () => {
    expect(await upgradeStatus(t.app, { query: { session: 'sess_unknown_token_xxxxxxxx' }, origin: 'https://shop.example' })).toBe(401);
    expect(await upgradeStatus(t.app, { query: { session: 'sess_valid_token_for_tests' } })).toBe(403);

    const created = await t.client.init({ amount: 900, isCent: true, currency: 'USD' });
    const [row] = await t.database.sql<{ id: string }[]>`select id from transactions where transaction_number = ${created.body.TransactionNumber}`;
    sessionGrant = {
      merchantId: t.merchant.merchantId,
      transactionId: row!.id,
      transactionNumber: created.body.TransactionNumber,
      allowedOrigins: ['https://shop.example'],
    };
    expect(await upgradeStatus(t.app, { query: { session: 'sess_valid_token_for_tests' }, origin: 'https://evil.example' })).toBe(403);
    const socket = await openSocket(t.app, { query: { session: 'sess_valid_token_for_tests' }, origin: 'https://shop.example' });
    socket.send({ type: 'subscribe', transactionNumber: created.body.TransactionNumber, afterSequence: 0 });
    await socket.next(isSubscribed);
    expect((await socket.next(isUpdate)).transaction.paymentDetails).toBeNull();
    await socket.close();
  });

  it('rate limits upgrades: failed attempts spend the address budget (429 with Retry-After)', async () => {
    const limited = await startRealtimeApp(t.database, { limiter: new RateLimiter(0.01, 2) });
    try {
      expect(await upgradeStatus(limited, { headers: bearer('sk_wrong1') })).toBe(401);
      expect(await upgradeStatus(limited, { headers: bearer('sk_wrong2') })).toBe(401);
      const refused = await openSocket(limited, { headers: bearer(t.merchant.apiKey) }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(UpgradeRefused);
      expect((refused as UpgradeRefused).status).toBe(429);
      expect(Number((refused as UpgradeRefused).headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('refuses upgrades past the connection cap with 503 and Retry-After, and accepts again once one closes', async () => {
    const capped = await startRealtimeApp(t.database, { realtime: { maxConnections: 2 } });
    try {
      const first = await openSocket(capped, { headers: bearer(t.merchant.apiKey) });
      const second = await openSocket(capped, { headers: bearer(t.merchant.apiKey) });
      const refused = await openSocket(capped, { headers: bearer(t.merchant.apiKey) }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(UpgradeRefused);
      expect((refused as UpgradeRefused).status).toBe(503);
      expect((refused as UpgradeRefused).headers['retry-after']).toBe('5');
      await first.close();
      await expect.poll(() => upgradeStatus(capped, { headers: bearer(t.merchant.apiKey) })).toBe(101);
      await second.close();
    } finally {
      await capped.close();
    }
  });

  it('never logs the credentials carried by the upgrade', async () => {
    const created = await t.client.init({ amount: 100, isCent: true, currency: 'USD' });
    const linkId = created.body.transactionPage.qrURL.split('/pay/')[1]!;
    expect(await upgradeStatus(t.app, { query: { link: linkId }, origin: PUBLIC_BASE_URL })).toBe(101);
    expect(await upgradeStatus(t.app, { query: { link: linkId } })).toBe(403);
    expect(await upgradeStatus(t.app, { query: { deviceId: t.merchant.deviceId } })).toBe(101);
    expect(await upgradeStatus(t.app, { headers: bearer(t.merchant.apiKey) })).toBe(101);
    const log = logLines.join('');
    expect(log).toContain('websocket connected');
    expect(log).toContain('websocket: upgrade refused');
    for (const secret of [linkId, t.merchant.deviceId, t.merchant.apiKey, t.merchant.branchApiKey, 'sess_valid_token_for_tests'])
      expect(log).not.toContain(secret);
  });
});
