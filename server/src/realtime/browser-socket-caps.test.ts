import type { ProvisionedMerchant } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../test/app';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { provisionTestMerchant } from '../test/fixtures';
import { merchantClient } from '../test/merchant-client';
import type { SessionGrant } from './session-token';
import { openSocket, PUBLIC_BASE_URL, startRealtimeApp, UpgradeRefused, upgradeStatus, type RealtimeTestApp, type TestSocket } from './testing';

/**
 * Browser sockets (a payment page's `?link=`, a widget's `?session=`) are capped per link, per SDK session and per
 * client address, apart from the instance's cap, so that one public link can neither exhaust the instance nor keep a
 * merchant's backend or a terminal from connecting.
 */
let database: TestDatabase;
let app: RealtimeTestApp;
let merchant: ProvisionedMerchant;
const SHOP = 'https://shop.example';
const grants = new Map<string, SessionGrant>();
const open: TestSocket[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // The instance's cap is far below the browser sockets opened here: they must not count against it.
  app = await startRealtimeApp(database, {
    realtime: { maxConnections: 3 },
    resolveSessionToken: async (_db, token) => grants.get(token) ?? null,
  });
  merchant = await provisionTestMerchant(database.db, 'Socket caps merchant', [SHOP]);
});

afterAll(async () => {
  await Promise.all(open.map((socket) => socket.close()));
  await app?.close();
  await database?.drop();
});

async function newLink(): Promise<string> {
  const created = await merchantClient(app, merchant).init({ amount: 100, isCent: true, currency: 'USD' });
  return created.body.transactionPage.qrURL.split('/pay/')[1]!;
}

async function newSession(): Promise<string> {
  const created = await merchantClient(app, merchant).init({ amount: 100, isCent: true, currency: 'USD' });
  const [row] = await database.sql<{ id: string }[]>`select id from transactions where transaction_number = ${created.body.TransactionNumber}`;
  const token = `sess_caps_${grants.size}_${'x'.repeat(20)}`;
  grants.set(token, { merchantId: merchant.merchantId, transactionId: row!.id, transactionNumber: created.body.TransactionNumber, allowedOrigins: [SHOP] });
  return token;
}

const linkSocket = async (linkId: string) => keep(await openSocket(app, { query: { link: linkId }, origin: PUBLIC_BASE_URL }));
const sessionSocket = async (token: string) => keep(await openSocket(app, { query: { session: token }, origin: SHOP }));
function keep(socket: TestSocket): TestSocket {
  open.push(socket);
  return socket;
}

async function refusal(opening: Promise<TestSocket>): Promise<UpgradeRefused> {
  const error = await opening.then(keep).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(UpgradeRefused);
  return error as UpgradeRefused;
}

describe('browser sockets', () => {
  it('are at most 5 per link: the 6th upgrade answers 429, another link is not affected, and a closed one frees its place', async () => {
    const linkId = await newLink();
    const sockets = [];
    for (let i = 0; i < 5; i++) sockets.push(await linkSocket(linkId));
    const refused = await refusal(openSocket(app, { query: { link: linkId }, origin: PUBLIC_BASE_URL }));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await linkSocket(await newLink());
    await sockets[0]!.close();
    await expect.poll(() => upgradeStatus(app, { query: { link: linkId }, origin: PUBLIC_BASE_URL })).toBe(101);
  });

  it('are at most 5 per SDK session', async () => {
    const token = await newSession();
    for (let i = 0; i < 5; i++) await sessionSocket(token);
    expect((await refusal(openSocket(app, { query: { session: token }, origin: SHOP }))).status).toBe(429);
    await sessionSocket(await newSession());
  });

  it('are at most 50 per client address, across links and sessions; merchants and devices still connect', async () => {
    // An instance of its own, so that only this test's sockets count against the address.
    const fresh = await startRealtimeApp(database, { realtime: { maxConnections: 3 }, resolveSessionToken: async (_db, token) => grants.get(token) ?? null });
    const opened: TestSocket[] = [];
    const opening = async (options: Parameters<typeof openSocket>[1]) => {
      const socket = await openSocket(fresh, options);
      opened.push(socket);
      return socket;
    };
    try {
      for (let link = 0; link < 9; link++) {
        const linkId = await newLink();
        for (let i = 0; i < 5; i++) await opening({ query: { link: linkId }, origin: PUBLIC_BASE_URL });
      }
      const token = await newSession();
      for (let i = 0; i < 5; i++) await opening({ query: { session: token }, origin: SHOP });
      expect((await refusal(opening({ query: { link: await newLink() }, origin: PUBLIC_BASE_URL }))).status).toBe(429);
      expect((await refusal(opening({ query: { session: await newSession() }, origin: SHOP }))).status).toBe(429);
      // Every browser cap of the address is full, and the instance's cap (3) is below the browser sockets open: a
      // merchant's backend and a terminal, from the same address, still connect.
      await opening({ headers: bearer(merchant.apiKey) });
      await opening({ query: { deviceId: merchant.deviceId } });
    } finally {
      await Promise.all(opened.map((socket) => socket.close()));
      await fresh.close();
    }
  });
});
