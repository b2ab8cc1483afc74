import { createHash } from 'node:crypto';
import type { SdkSession } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { bearer } from '../test/app';
import { useTestApp, UNTHROTTLED } from '../test/harness';
import { codeOf } from '../test/merchant-client';

/**
 * What the idempotency store keeps to recognise a replay never lets anyone recover a card: no table holds a card
 * number or security code, nor a hash of them or of a body that carried them, and the fingerprint a key keeps is the
 * same whatever card the request carried (so no hash of the card, keyed or not, can be inside it).
 */
const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Card Data Shop' });

const card = (number: string, cvc = '123') => ({ number, expMonth: 11, expYear: 2097, cvc });
const newKey = (name: string) => `${name}-${Math.random().toString(36).slice(2)}`;
const linkOf = (qrURL: string) => qrURL.split('/pay/')[1]!;

async function newLink(): Promise<string> {
  const created = await t.client.init({ amount: 9, currency: 'USD' });
  return linkOf(created.body.transactionPage.qrURL);
}

function payLink(linkId: string, key: string, body: unknown) {
  return t.app.request(`/pay/${linkId}`, { headers: { 'idempotency-key': key }, body });
}

/** The fingerprint stored under a key of a space (`link:<id>`, `session:<id>`) or of a merchant credential. */
async function fingerprintOf(storedKey: string): Promise<Buffer> {
  const [row] = await t.database.sql<{ request_hash: Buffer }[]>`
    select request_hash from idempotency_keys where merchant_id = ${t.merchant.merchantId} and key = ${storedKey}`;
  if (!row) throw new Error(`nothing is stored under ${storedKey}`);
  return row.request_hash;
}

/** Every row of every table of the service, as JSON text (bytea as \x hex). */
async function everyRowAsText(): Promise<string[]> {
  const tables = await t.database.sql<{ name: string }[]>`
    select quote_ident(table_schema) || '.' || quote_ident(table_name) as name
    from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`;
  expect(tables.map((table) => table.name)).toContain('public.idempotency_keys');
  const rows: string[] = [];
  for (const { name } of tables) {
    const found = await t.database.sql.unsafe<{ row: string }[]>(`select row_to_json(t)::text as row from ${name} t`);
    rows.push(...found.map((r) => r.row));
  }
  return rows;
}

/** A digest in every spelling a column could hold it in. */
function spellings(digest: Buffer): string[] {
  return [digest.toString('hex'), digest.toString('base64'), digest.toString('base64url')];
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The same JSON with its keys sorted, as a fingerprint over "the body whatever its layout" would take it. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('card data and the idempotency store', () => {
  it('a hosted-page payment under an Idempotency-Key leaves no card number, CVC, nor a hash of either or of its body, in any table', async () => {
    const linkId = await newLink();
    const number = '4242424242424242';
    const body = { method: 'card', card: card(number, '987') };
    const paid = await payLink(linkId, newKey('scan'), body);
    expect(paid.status).toBe(200);

    const path = `/pay/${linkId}`;
    const digests = [
      sha256(number),
      sha256('4242 4242 4242 4242'),
      sha256(`${number}987`),
      sha256(`${number}|11|2097|987`),
      sha256(JSON.stringify(body)),
      sha256(JSON.stringify(body.card)),
      sha256(sortedJson(body)),
      // The whole request as a fingerprint of it, with or without the caller, method and path before the body.
      sha256(`\nPOST ${path}\n${sortedJson(body)}`),
      sha256(`POST ${path}\n${sortedJson(body)}`),
    ];
    const rows = await everyRowAsText();
    expect(rows.some((row) => row.includes('4242'))).toBe(true); // the last four digits are kept: the scan sees the payment
    for (const row of rows) {
      expect(row).not.toContain(number);
      expect(row).not.toContain('"987"');
      for (const digest of digests) for (const spelled of spellings(digest)) expect(row).not.toContain(spelled);
    }
  });

  it('the fingerprint of a hosted-page payment is the same whatever the card, its expiry and its CVC', async () => {
    const linkId = await newLink();
    const [first, second] = [newKey('first'), newKey('second')];
    // Two declined attempts on one link (a decline leaves it payable): the same request but for the card.
    expect((await payLink(linkId, first, { method: 'card', card: card('4000000000000002', '123') })).status).toBe(402);
    expect((await payLink(linkId, second, { method: 'card', card: { ...card('4000000000009995', '456'), expMonth: 3 } })).status).toBe(402);
    expect(await fingerprintOf(`link:${linkId} ${second}`)).toEqual(await fingerprintOf(`link:${linkId} ${first}`));
  });

  it('the fingerprint of an SDK session card payment is the same whatever the card', async () => {
    const serviceOrigin = new URL(t.app.env.PUBLIC_BASE_URL).origin;
    const started = await t.app.request('/sdk/sessions', {
      headers: { origin: 'http://localhost:3000' },
      body: { clientId: t.merchant.clientId, methodType: 'manual_capture', mode: 'sandbox' },
    });
    expect(started.status).toBe(200);
    const session = (await started.json()) as SdkSession;
    const pay = (key: string, number: string, cvc: string) =>
      t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
        headers: { authorization: `Bearer ${session.sessionToken}`, origin: serviceOrigin, 'idempotency-key': key },
        body: { method: 'card', card: card(number, cvc), amount: 700, currency: 'USD' },
      });
    const [first, second] = [newKey('sdk-first'), newKey('sdk-second')];
    expect((await pay(first, '4000000000000002', '123')).status).toBe(402);
    expect((await pay(second, '4000000000009995', '456')).status).toBe(402);
    expect(await fingerprintOf(`session:${session.sessionId} ${second}`)).toEqual(await fingerprintOf(`session:${session.sessionId} ${first}`));
  });

  it('the fingerprint of a terminal tap is the same whatever the test card', async () => {
    const created = await t.client.init({ amount: 4, currency: 'USD', deviceId: t.merchant.deviceId });
    const tap = (key: string, cardNumber: string) =>
      t.app.request('/sandbox/terminal/tap', {
        headers: { ...bearer(t.merchant.deviceId), 'idempotency-key': key },
        body: { method: 'card', transactionNumber: created.body.TransactionNumber, cardNumber },
      });
    const [first, second] = [newKey('tap-first'), newKey('tap-second')];
    expect((await tap(first, '4000000000000002')).status).toBe(402);
    expect((await tap(second, '4000000000009995')).status).toBe(402);
    expect(await fingerprintOf(second)).toEqual(await fingerprintOf(first));
  });

  it('the same key with another card is the same attempt: its answer replays, and the other card is never charged', async () => {
    const linkId = await newLink();
    const key = newKey('attempt');
    const declined = await payLink(linkId, key, { method: 'card', card: card('4000000000000002') });
    expect(declined.status).toBe(402);
    const again = await payLink(linkId, key, { method: 'card', card: card('4242424242424242') });
    expect(again.status).toBe(402);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(await declined.text());
    const state = (await (await t.app.request(`/pay/${linkId}/state`)).json()) as { status: number; payable: boolean };
    expect(state).toMatchObject({ payable: true });
    // Another body beyond the card is still another request.
    const wallet = await payLink(linkId, key, { method: 'paypal' });
    expect(wallet.status).toBe(422);
    expect(codeOf(await wallet.json())).toBe('idempotency_key_reused');
  });

  it('a card refused as unusable is not kept under the key: the corrected card pays under the same key', async () => {
    const linkId = await newLink();
    const key = newKey('typo');
    const typo = await payLink(linkId, key, { method: 'card', card: card('4242424242424241') });
    expect(typo.status).toBe(400);
    expect(codeOf(await typo.json())).toBe('invalid_card');
    const corrected = await payLink(linkId, key, { method: 'card', card: card('4242424242424242') });
    expect(corrected.status).toBe(200);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a key whose fingerprint was deleted (as the upgrade did to those taken over a card) still replays its answer', async () => {
    const linkId = await newLink();
    const key = newKey('forgotten');
    const paid = await payLink(linkId, key, { method: 'card', card: card('4242424242424242') });
    expect(paid.status).toBe(200);
    await t.database.sql`update idempotency_keys set request_hash = null where key = ${`link:${linkId} ${key}`}`;
    const again = await payLink(linkId, key, { method: 'paypal' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(await paid.text());
  });
});
