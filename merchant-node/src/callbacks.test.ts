import { signCallback } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { generateTestCallbackHeaders, verifyCallback } from './callbacks';

const SECRET = `whsec_${Buffer.from('a'.repeat(32)).toString('base64')}`;
const BODY = '{"TransactionNumber":"T1","status":0}';

describe('verifyCallback', () => {
  it("verifies the headers as a fetch Headers object, as Node's lower-case req.headers, and as a lookup function", async () => {
    const signed = await generateTestCallbackHeaders(SECRET, BODY);
    const nodeHeaders = Object.fromEntries(Object.entries(signed).map(([name, value]) => [name.toLowerCase(), value]));
    expect(await verifyCallback(SECRET, new Headers(signed as unknown as Record<string, string>), BODY)).toBe(true);
    expect(await verifyCallback(SECRET, nodeHeaders, BODY)).toBe(true);
    expect(await verifyCallback(SECRET, (name) => nodeHeaders[name], Buffer.from(BODY))).toBe(true);
  });

  it('refuses another body, another secret, a replay and a callback without signatures', async () => {
    const signed = await generateTestCallbackHeaders(SECRET, BODY, { timestampS: 1_000_000 });
    expect(await verifyCallback(SECRET, signed as unknown as Record<string, string>, BODY, { nowS: 1_000_010 })).toBe(true);
    expect(await verifyCallback(SECRET, signed as unknown as Record<string, string>, `${BODY} `, { nowS: 1_000_010 })).toBe(false);
    expect(
      await verifyCallback(`whsec_${Buffer.from('b'.repeat(32)).toString('base64')}`, signed as unknown as Record<string, string>, BODY, { nowS: 1_000_010 }),
    ).toBe(false);
    expect(await verifyCallback(SECRET, signed as unknown as Record<string, string>, BODY, { nowS: 1_000_000 + 301 })).toBe(false);
    expect(await verifyCallback(SECRET, {}, BODY)).toBe(false);
  });

  it('gives the headers the service itself sends', async () => {
    const service = await signCallback(SECRET, 'evt_1', BODY, 1_000_000, '0123456789abcdef0123456789abcdef');
    const test = await generateTestCallbackHeaders(SECRET, BODY, { eventId: 'evt_1', timestampS: 1_000_000 });
    expect(Object.keys(test).sort()).toEqual(Object.keys(service).sort());
    expect(test['webhook-signature']).toBe(service['webhook-signature']);
  });
});
