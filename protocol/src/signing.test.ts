import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateTestCallbackHeaders, signCallback, signSpecHmac, verifyCallback, verifySpecHmac, verifyStandardWebhook } from './signing';

const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const body = JSON.stringify({ TransactionNumber: 'ABC', status: 5, paymentDetails: { token: 'auth_x' } });
const headerOf = (headers: Record<string, string>) => (name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

describe('the spec scheme (HMAC-Random-Key + HMAC-Authorization)', () => {
  it('is HMAC-SHA256 with the whole secret string over random key + raw body, in lowercase hex', async () => {
    const signature = await signSpecHmac(secret, '00112233445566778899aabbccddeeff', body);
    const byNode = createHmac('sha256', secret).update(`00112233445566778899aabbccddeeff${body}`).digest('hex');
    expect(signature).toBe(byNode);
    expect(await verifySpecHmac(secret, '00112233445566778899aabbccddeeff', signature, body)).toBe(true);
  });

  it('rejects a tampered body, key or signature, and a signature of the wrong length without throwing', async () => {
    const key = '00112233445566778899aabbccddeeff';
    const signature = await signSpecHmac(secret, key, body);
    expect(await verifySpecHmac(secret, key, signature, body.replace('5', '6'))).toBe(false);
    expect(await verifySpecHmac(secret, key.replace('0', '1'), signature, body)).toBe(false);
    expect(await verifySpecHmac(`${secret}x`, key, signature, body)).toBe(false);
    expect(await verifySpecHmac(secret, key, `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`, body)).toBe(false);
    expect(await verifySpecHmac(secret, key, signature.slice(0, 10), body)).toBe(false);
    expect(await verifySpecHmac(secret, key, `${signature}00`, body)).toBe(false);
    expect(await verifySpecHmac(secret, key, 'not hex at all', body)).toBe(false);
    expect(await verifySpecHmac(secret, key, '', body)).toBe(false);
  });

  it('signs the empty body of a GET callback', async () => {
    const headers = await signCallback(secret, 'evt_1', '', 1_700_000_000);
    expect(headers['HMAC-Authorization']).toBe(createHmac('sha256', secret).update(headers['HMAC-Random-Key']).digest('hex'));
  });
});

describe('Standard Webhooks headers', () => {
  it('verify with the standardwebhooks npm package and with our verifier', async () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = await signCallback(secret, 'evt_42', body, now);
    expect(headers['HMAC-Random-Key']).toMatch(/^[0-9a-f]{32}$/);
    const payload = new Webhook(secret).verify(body, {
      'webhook-id': headers['webhook-id'],
      'webhook-timestamp': headers['webhook-timestamp'],
      'webhook-signature': headers['webhook-signature'],
    });
    expect(payload).toEqual(JSON.parse(body));
    expect(await verifyStandardWebhook(secret, { id: 'evt_42', timestamp: String(now), signature: headers['webhook-signature'] }, body)).toBe(true);
  });

  it('match what the standardwebhooks package itself signs', async () => {
    const date = new Date(1_700_000_000_000);
    const theirs = new Webhook(secret).sign('evt_7', date, body);
    expect(await signCallback(secret, 'evt_7', body, 1_700_000_000)).toMatchObject({ 'webhook-signature': theirs });
  });

  it('reject a tampered body, id, timestamp or signature, an old timestamp, and garbage', async () => {
    const now = 1_700_000_000;
    const { 'webhook-signature': signature } = await signCallback(secret, 'evt_1', body, now);
    const verify = (h: Partial<{ id: string; timestamp: string; signature: string }>, b = body) =>
      verifyStandardWebhook(secret, { id: 'evt_1', timestamp: String(now), signature, ...h }, b, { nowS: now });
    expect(await verify({})).toBe(true);
    expect(await verify({}, `${body} `)).toBe(false);
    expect(await verify({ id: 'evt_2' })).toBe(false);
    expect(await verify({ timestamp: String(now + 1) })).toBe(false);
    expect(await verify({ signature: 'v1,AAAA' })).toBe(false);
    expect(await verify({ signature: 'v1,!!!not-base64' })).toBe(false);
    expect(await verify({ signature: `v2,${signature.slice(3)}` })).toBe(false);
    expect(await verify({ signature: `v1,bogus ${signature}` })).toBe(true); // any listed signature may match
    expect(await verifyStandardWebhook(secret, { id: 'evt_1', timestamp: String(now), signature }, body, { nowS: now + 301 })).toBe(false);
    expect(await verifyStandardWebhook(secret, { id: 'evt_1', timestamp: 'soon', signature }, body, { nowS: now })).toBe(false);
  });
});

describe('verifyCallback and the test helper', () => {
  it('verify what generateTestCallbackHeaders signs, by either scheme, on raw bytes', async () => {
    const headers = await generateTestCallbackHeaders(secret, body);
    expect(await verifyCallback(secret, headerOf({ ...headers }), body)).toBe(true);
    expect(await verifyCallback(secret, headerOf({ ...headers }), new TextEncoder().encode(body))).toBe(true);
    const { 'HMAC-Random-Key': _k, 'HMAC-Authorization': _a, ...standardOnly } = headers;
    expect(await verifyCallback(secret, headerOf(standardOnly), body)).toBe(true);
    // Re-serialised JSON is not the body that was signed.
    expect(await verifyCallback(secret, headerOf({ ...headers }), JSON.stringify(JSON.parse(body), null, 2))).toBe(false);
    expect(await verifyCallback(secret, headerOf({}), body)).toBe(false);
  });

  it('refuse a replay: a callback signed a week ago fails on its timestamp, though its spec HMAC still matches', async () => {
    const weekAgo = Math.floor(Date.now() / 1000) - 7 * 24 * 3600;
    const old = await generateTestCallbackHeaders(secret, body, { timestampS: weekAgo });
    expect(await verifyCallback(secret, headerOf({ ...old }), body)).toBe(false);
    expect(await verifyCallback(secret, headerOf({ ...old }), body, { nowS: weekAgo + 60 })).toBe(true);
    // Every signature present must hold: a good Standard Webhooks signature does not cover a forged spec one.
    const fresh = await generateTestCallbackHeaders(secret, body);
    expect(await verifyCallback(secret, headerOf({ ...fresh, 'HMAC-Authorization': '0'.repeat(64) }), body)).toBe(false);
    // The spec headers alone (no timestamp to check) are still accepted.
    const { 'webhook-id': _i, 'webhook-timestamp': _t, 'webhook-signature': _s, ...specOnly } = fresh;
    expect(await verifyCallback(secret, headerOf(specOnly), body)).toBe(true);
  });

  it('refuse a callback signed more than 5 minutes ahead of the clock, as one signed more than 5 minutes ago', async () => {
    const now = 1_700_000_000;
    const at = async (offsetS: number, options: { toleranceS?: number } = {}) =>
      verifyCallback(secret, headerOf({ ...(await generateTestCallbackHeaders(secret, body, { timestampS: now + offsetS })) }), body, {
        nowS: now,
        ...options,
      });
    // Signed at that time, so only the timestamp can make it fail.
    expect(await at(0)).toBe(true);
    expect(await at(300)).toBe(true);
    expect(await at(-300)).toBe(true);
    expect(await at(301)).toBe(false);
    expect(await at(-301)).toBe(false);
    expect(await at(7 * 24 * 3600)).toBe(false);
    expect(await at(30, { toleranceS: 30 })).toBe(true);
    expect(await at(31, { toleranceS: 30 })).toBe(false);
    expect(await at(-31, { toleranceS: 30 })).toBe(false);
  });
});
