import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../sandbox/sandbox-clock';
import { addBranch } from '../../test/fixtures';
import { useTestApp } from '../../test/harness';
import { consumerPays } from '../../test/merchant-client';
import { Status } from '@svc/protocol';

const t = useTestApp({ merchantName: 'Sticker Café' });

const stickerPath = () => new URL(t.merchant.stickerUrl).pathname;
const open = (path = stickerPath()) => t.app.request(path, { headers: { accept: 'text/html' } }).then(async (res) => ({ res, html: await res.text() }));
const next = async (path = stickerPath()) => (await t.app.request(`${path}/next`)).json() as Promise<{ type: string; url?: string }>;
const forDevice = (extra: Record<string, unknown> = {}) => t.client.init({ amount: 4.5, currency: 'USD', deviceId: t.merchant.deviceId, ...extra });

describe('stickers', () => {
  it('each device has a public sticker URL: random, not the device ID', async () => {
    const url = new URL(t.merchant.stickerUrl);
    expect(url.origin).toBe(t.app.env.PUBLIC_BASE_URL);
    const code = url.pathname.split('/s/')[1]!;
    expect(code).toMatch(/^[0-9a-f]{32}$/);
    expect(t.merchant.stickerUrl).not.toContain(t.merchant.deviceId);
    const other = await addBranch(t.database.db, t.merchant.merchantId);
    const [row] = await t.database.sql<{ sticker_code: string }[]>`select sticker_code from devices where id = ${other.deviceRowId}`;
    expect(row!.sticker_code).toMatch(/^[0-9a-f]{32}$/);
    expect(row!.sticker_code).not.toBe(code);
  });

  it('with nothing pending: the "No payment is waiting" page, which polls and then finds the new transaction', async () => {
    const waiting = await open();
    expect(waiting.res.status).toBe(200);
    expect(waiting.res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(waiting.res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(waiting.res.headers.get('cache-control')).toBe('no-store');
    expect(waiting.html).toContain('<h1>No payment is waiting</h1>');
    expect(waiting.html).toMatch(/<script src="\/pay-assets\/sticker\.js" defer><\/script>/);
    expect(waiting.html).not.toContain(t.merchant.deviceId);
    expect(await next()).toEqual({ type: 'waiting' });

    const created = await forDevice();
    expect(await next()).toEqual({ type: 'payment', url: created.body.transactionPage.qrURL });
    const opened = await fetch(`${t.app.baseUrl}${stickerPath()}`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(created.body.transactionPage.qrURL);
    await t.client.cancel(created.body.TransactionNumber);
  });

  it('opens the newest pending transaction, and never a cancelled, paid or timed-out one', async () => {
    const older = await forDevice();
    const newer = await forDevice();
    expect((await next()).url).toBe(newer.body.transactionPage.qrURL);
    await t.client.cancel(newer.body.TransactionNumber);
    expect((await next()).url).toBe(older.body.transactionPage.qrURL);
    expect((await consumerPays(t.app, older.body)).status).toBe(200);
    expect(await next()).toEqual({ type: 'waiting' });

    // Past its time-out but not yet swept (still status 1): not opened either.
    const soon = await forDevice({ timeOut: 60 });
    expect((await next()).url).toBe(soon.body.transactionPage.qrURL);
    await t.database.db.transaction((tx) => new SandboxClock(t.database.db).advance(61, tx));
    await (t.app.clock as SandboxClock).refresh();
    expect((await t.client.get(soon.body.TransactionNumber)).body.status).toBe(Status.Pending);
    expect(await next()).toEqual({ type: 'waiting' });
    expect((await open()).res.status).toBe(200);
  });

  it('a cancel racing the sticker: once the cancel has answered, the sticker never opens that transaction', async () => {
    for (let round = 0; round < 5; round++) {
      const created = await forDevice();
      const [cancelled, during] = await Promise.all([t.client.cancel(created.body.TransactionNumber), next()]);
      expect(cancelled.status).toBe(200);
      // Read during the cancel: the payment page or waiting, both fine (the page then says it was cancelled).
      expect([created.body.transactionPage.qrURL, undefined]).toContain(during.url);
      expect(await next()).toEqual({ type: 'waiting' });
    }
  });

  it("never opens another device's transaction nor a transaction without a device", async () => {
    const other = await addBranch(t.database.db, t.merchant.merchantId);
    await t.client.init({ amount: 3, currency: 'USD', deviceId: other.deviceId });
    await t.client.init({ amount: 3, currency: 'USD' });
    expect(await next()).toEqual({ type: 'waiting' });
  });

  it('an unknown or malformed sticker: a 404 page; /next answers 404 problem JSON, or 400 naming the malformed code', async () => {
    for (const [path, status] of [
      ['/s/0123456789abcdef0123456789abcdef', 404],
      ['/s/NOT-A-CODE', 400],
    ] as const) {
      const { res, html } = await open(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(html).toContain('<h1>Sticker not found</h1>');
      const json = await t.app.request(`${path}/next`);
      expect(json.status).toBe(status);
      expect(json.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      if (status === 400) expect(((await json.json()) as { errors: { path: string }[] }).errors[0]?.path).toBe('stickerCode');
    }
  });
});
