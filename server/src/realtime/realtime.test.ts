import { Status, WS_CLOSE_CODES } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { addBranch, provisionTestMerchant } from '../test/fixtures';
import { authorizedHold, consumerPays, merchantClient } from '../test/merchant-client';
import { bearer } from '../test/app';
import {
  isError,
  isSubscribed,
  isUpdate,
  openSocket,
  PUBLIC_BASE_URL,
  startRealtimeApp,
  UpgradeRefused,
  useRealtimeApp,
  type RealtimeTestApp,
  type TestSocket,
} from './testing';

// One event per replay query: replays take long enough for live updates to land while they run.
const t = useRealtimeApp({ realtime: { replayPageSize: 1 } });

const merchantSocket = (key = t.merchant.apiKey): Promise<TestSocket> => t.socket({ headers: bearer(key) });

describe('transaction subscriptions', () => {
  it('delivers a capture made over HTTP with its sequence and the transaction object', async () => {
    const hold = await authorizedHold(t.app, t.client, 5_000);
    const socket = await merchantSocket();
    socket.send({ type: 'subscribe', transactionNumber: hold.transactionNumber });
    expect(await socket.next(isSubscribed)).toEqual({ type: 'subscribed', transactionNumber: hold.transactionNumber, replayed: 0 });

    const paid = await t.client.pay({ token: hold.token, amount: 1_200 });
    expect(paid.status).toBe(200);
    const update = await socket.next(isUpdate);
    expect(update.sequence).toBe(paid.body.transaction.sequence);
    expect(update.sequence).toBe(hold.transaction.sequence + 1);
    expect(update.transaction).toEqual(paid.body.transaction);
    expect(update.transaction.authorization?.capturedCents).toBe(1_200);
    expect(update.eventId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('replays the updates after afterSequence in order, then goes live without duplicates', async () => {
    const hold = await authorizedHold(t.app, t.client, 5_000);
    const seen = hold.transaction.sequence;
    await t.client.pay({ token: hold.token, amount: 100 });
    await t.client.pay({ token: hold.token, amount: 200 });

    const socket = await merchantSocket();
    socket.send({ type: 'subscribe', transactionNumber: hold.transactionNumber, afterSequence: seen });
    const subscribed = await socket.next(isSubscribed);
    expect(subscribed).toEqual({ type: 'subscribed', transactionNumber: hold.transactionNumber, replayed: 2 });
    // The replayed updates come before `subscribed`.
    expect(socket.messages.map((m) => m.type)).toEqual(['transaction.updated', 'transaction.updated', 'subscribed']);
    expect(socket.updates().map((m) => m.sequence)).toEqual([seen + 1, seen + 2]);
    expect(socket.updates().map((m) => m.transaction.authorization?.capturedCents)).toEqual([100, 300]);

    await t.client.pay({ token: hold.token, amount: 300 });
    await socket.next((m) => isUpdate(m) && m.sequence === seen + 3);
    expect(socket.updates().map((m) => m.sequence)).toEqual([seen + 1, seen + 2, seen + 3]);
  });

  it('afterSequence 0 replays every update from creation', async () => {
    const hold = await authorizedHold(t.app, t.client, 5_000);
    const socket = await merchantSocket();
    socket.send({ type: 'subscribe', transactionNumber: hold.transactionNumber, afterSequence: 0 });
    expect(await socket.next(isSubscribed)).toMatchObject({ replayed: hold.transaction.sequence });
    expect(socket.updates().map((m) => m.sequence)).toEqual(Array.from({ length: hold.transaction.sequence }, (_, i) => i + 1));
    expect(socket.updates()[0]!.transaction.status).toBe(Status.Pending);
  });

  it('has no gap and no duplicate when updates land while the replay runs', async () => {
    const hold = await authorizedHold(t.app, t.client, 10_000);
    const captures = 12;
    const socket = await merchantSocket();
    // Captures in flight on both sides of the subscription: some before the replay reads, some during, some after.
    const first = Array.from({ length: captures / 2 }, () => t.client.pay({ token: hold.token, amount: 100 }));
    await first[0];
    socket.send({ type: 'subscribe', transactionNumber: hold.transactionNumber, afterSequence: 0 });
    const second = Array.from({ length: captures / 2 }, () => t.client.pay({ token: hold.token, amount: 100 }));
    const results = await Promise.all([...first, ...second]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    const last = hold.transaction.sequence + captures;
    await socket.next((m) => isUpdate(m) && m.sequence === last);
    expect(socket.updates().map((m) => m.sequence)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    expect(socket.updates().at(-1)!.transaction.authorization?.capturedCents).toBe(captures * 100);
  });

  it('stops after unsubscribe and answers not_found for a transaction that does not exist', async () => {
    const hold = await authorizedHold(t.app, t.client, 5_000);
    const socket = await merchantSocket();
    socket.send({ type: 'subscribe', transactionNumber: hold.transactionNumber });
    await socket.next(isSubscribed);
    socket.send({ type: 'unsubscribe', transactionNumber: hold.transactionNumber });
    socket.send({ type: 'subscribe', transactionNumber: 'NOSUCHTRANSACTION' });
    expect(await socket.next(isError)).toMatchObject({ code: 'not_found', transactionNumber: 'NOSUCHTRANSACTION' });
    await t.client.pay({ token: hold.token, amount: 100 });
    // A later subscription's update arrives; the unsubscribed one never did.
    socket.send({ type: 'ping' });
    await socket.next((m) => m.type === 'pong');
    expect(socket.updates()).toEqual([]);
  });
});

describe('scopes and credentials', () => {
  it('merchant scope receives a new transaction and its updates', async () => {
    const socket = await merchantSocket();
    socket.send({ type: 'subscribe', scope: 'merchant' });
    expect(await socket.next(isSubscribed)).toEqual({ type: 'subscribed', scope: 'merchant', replayed: 0 });
    const created = await t.client.init({ amount: 1_500, isCent: true, currency: 'USD' });
    const number = created.body.TransactionNumber;
    const creation = await socket.next((m) => isUpdate(m) && m.transaction.TransactionNumber === number);
    expect(creation).toMatchObject({ sequence: 1, transaction: { status: Status.Pending, amountCents: 1_500 } });
    await consumerPays(t.app, created.body);
    const paid = await socket.next((m) => isUpdate(m) && m.transaction.TransactionNumber === number && m.sequence === 2);
    expect(paid).toMatchObject({ transaction: { status: Status.Approved } });
  });

  it('a connection gets an update once even when a scope and a transaction subscription both match', async () => {
    const hold = await authorizedHold(t.app, t.client, 5_000);
    const socket = await merchantSocket();
    socket.send({ type: 'subscribe', scope: 'merchant' });
    socket.send({ type: 'subscribe', transactionNumber: hold.transactionNumber });
    await socket.next((m) => isSubscribed(m) && 'transactionNumber' in m);
    await t.client.pay({ token: hold.token, amount: 100 });
    await socket.next(isUpdate);
    socket.send({ type: 'ping' });
    await socket.next((m) => m.type === 'pong');
    expect(socket.updates(hold.transactionNumber)).toHaveLength(1);
  });

  it("a branch key sees its branch only: another branch's transaction is not_found, and its scope skips it", async () => {
    const other = await addBranch(t.database.db, t.merchant.merchantId);
    const own = await addBranch(t.database.db, t.merchant.merchantId);
    const elsewhere = await t.client.init({ amount: 100, isCent: true, currency: 'USD', deviceId: other.deviceId });
    const socket = await merchantSocket(own.branchApiKey);
    socket.send({ type: 'subscribe', transactionNumber: elsewhere.body.TransactionNumber, afterSequence: 0 });
    expect(await socket.next(isError)).toMatchObject({ code: 'not_found', transactionNumber: elsewhere.body.TransactionNumber });

    socket.send({ type: 'subscribe', scope: 'merchant' });
    await socket.next(isSubscribed);
    const notMine = await t.client.init({ amount: 200, isCent: true, currency: 'USD', deviceId: other.deviceId });
    const mine = await t.client.init({ amount: 300, isCent: true, currency: 'USD', deviceId: own.deviceId });
    await socket.next((m) => isUpdate(m) && m.transaction.TransactionNumber === mine.body.TransactionNumber);
    expect(socket.updates(notMine.body.TransactionNumber)).toEqual([]);
    expect(socket.updates()).toHaveLength(1);

    // Its own branch's transactions: allowed.
    socket.send({ type: 'subscribe', transactionNumber: mine.body.TransactionNumber, afterSequence: 0 });
    expect(await socket.next((m) => isSubscribed(m) && 'transactionNumber' in m)).toMatchObject({ replayed: 1 });
  });

  it("another merchant's transaction is not_found", async () => {
    const stranger = await provisionTestMerchant(t.database.db);
    const theirs = await merchantClient(t.app, stranger).init({ amount: 100, isCent: true, currency: 'USD' });
    const socket = await merchantSocket();
    socket.send({ type: 'subscribe', transactionNumber: theirs.body.TransactionNumber });
    expect(await socket.next(isError)).toMatchObject({ code: 'not_found' });
  });

  it('a payment link socket needs the service origin and sees only its transaction, without the token or POS data', async () => {
    const created = await t.client.init({ amount: 2_500, isCent: true, currency: 'USD', methodType: 'authorize', posData: { till: 'T-7', clerk: 'ana' } });
    expect(created.body.posData).toEqual({ till: 'T-7', clerk: 'ana' });
    const other = await t.client.init({ amount: 100, isCent: true, currency: 'USD' });
    const linkId = created.body.transactionPage.qrURL.split('/pay/')[1]!;

    for (const origin of [undefined, 'https://evil.example', 'http://localhost:3000']) {
      const refused = await openSocket(t.app, { query: { link: linkId }, ...(origin ? { origin } : {}) }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(UpgradeRefused);
      expect((refused as UpgradeRefused).status).toBe(403);
    }
    const unknownLink = await openSocket(t.app, { query: { link: 'x'.repeat(32) }, origin: PUBLIC_BASE_URL }).catch((error: unknown) => error);
    expect((unknownLink as UpgradeRefused).status).toBe(401);

    const socket = await t.socket({ query: { link: linkId }, origin: PUBLIC_BASE_URL });
    socket.send({ type: 'subscribe', transactionNumber: other.body.TransactionNumber });
    expect(await socket.next(isError)).toMatchObject({ code: 'not_found', transactionNumber: other.body.TransactionNumber });
    socket.send({ type: 'subscribe', scope: 'merchant' });
    expect(await socket.next((m) => isError(m) && m.code === 'scope_not_allowed')).toBeTruthy();
    socket.send({ type: 'subscribe', transactionNumber: created.body.TransactionNumber });
    await socket.next(isSubscribed);

    await consumerPays(t.app, created.body);
    const update = await socket.next(isUpdate);
    expect(update.transaction).toMatchObject({
      TransactionNumber: created.body.TransactionNumber,
      status: Status.Authorized,
      paymentDetails: null,
      posData: null,
    });
    const full = await t.client.get(created.body.TransactionNumber);
    expect(full.body.paymentDetails?.token).toMatch(/^auth_/);
    expect(full.body.posData).toEqual({ till: 'T-7', clerk: 'ana' });
  });

  it("closes a socket when its credential is revoked (4001), and leaves other credentials' sockets open", async () => {
    const revoked = await provisionTestMerchant(t.database.db);
    const doomed = await merchantSocket(revoked.apiKey);
    const bystander = await merchantSocket();
    doomed.send({ type: 'subscribe', scope: 'merchant' });
    await doomed.next(isSubscribed);
    await t.database.sql`update api_credentials set revoked_at = now() where merchant_id = ${revoked.merchantId} and kind = 'merchant_key'`;
    expect(await doomed.closed).toEqual({ code: WS_CLOSE_CODES.CREDENTIAL_REVOKED, reason: 'credential revoked' });
    bystander.send({ type: 'ping' });
    expect(await bystander.next((m) => m.type === 'pong')).toBeTruthy();
  });

  it('device scope pushes new transactions sent to that terminal, and only those', async () => {
    const terminal = await t.socket({ query: { deviceId: t.merchant.deviceId } });
    terminal.send({ type: 'subscribe', scope: 'merchant' });
    expect(await terminal.next(isError)).toMatchObject({ code: 'scope_not_allowed' });
    terminal.send({ type: 'subscribe', scope: 'device' });
    expect(await terminal.next(isSubscribed)).toEqual({ type: 'subscribed', scope: 'device', replayed: 0 });

    const notForIt = await t.client.init({ amount: 100, isCent: true, currency: 'USD' });
    const forIt = await t.client.init({ amount: 700, isCent: true, currency: 'USD', deviceId: t.merchant.deviceId });
    await terminal.next((m) => isUpdate(m) && m.transaction.TransactionNumber === forIt.body.TransactionNumber);
    expect(terminal.updates(notForIt.body.TransactionNumber)).toEqual([]);

    terminal.send({ type: 'subscribe', transactionNumber: notForIt.body.TransactionNumber });
    expect(await terminal.next((m) => isError(m) && m.code === 'not_found')).toBeTruthy();
    terminal.send({ type: 'subscribe', transactionNumber: forIt.body.TransactionNumber, afterSequence: 0 });
    expect(await terminal.next((m) => isSubscribed(m) && 'transactionNumber' in m)).toMatchObject({ replayed: 1 });
  });
});

describe('two instances on one database', () => {
  let second: DatabaseHandle;
  let instanceB: RealtimeTestApp;

  beforeAll(async () => {
    second = openDatabase(t.database.url, { max: 4 });
    instanceB = await startRealtimeApp({ ...second, url: t.database.url });
  });

  afterAll(async () => {
    await instanceB?.close();
    await second?.close();
  });

  it('a capture made through instance A reaches a subscriber on instance B', async () => {
    const hold = await authorizedHold(t.app, t.client, 5_000);
    const onB = await t.socket({ headers: bearer(t.merchant.apiKey) }, instanceB);
    onB.send({ type: 'subscribe', transactionNumber: hold.transactionNumber });
    await onB.next(isSubscribed);
    const paid = await t.client.pay({ token: hold.token, amount: 2_000 });
    expect(paid.status).toBe(200);
    const update = await onB.next(isUpdate);
    expect(update.sequence).toBe(paid.body.transaction.sequence);
    expect(update.transaction.authorization?.capturedCents).toBe(2_000);
  });
});
