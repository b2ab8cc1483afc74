import { describe, expect, it } from 'vitest';
import { generateTestCallbackHeaders, verifyCallback } from './callbacks';

/**
 * What this package's verifyCallback (the protocol's verifier, bundled into it) must refuse: a callback dated ahead
 * of the tolerance as much as one dated behind it, and a signature cut short in either scheme.
 */
const SECRET = `whsec_${Buffer.from('c'.repeat(32)).toString('base64')}`;
const BODY = '{"TransactionNumber":"T2","status":5}';
const AT = 1_000_000;

const signedAt = async () => (await generateTestCallbackHeaders(SECRET, BODY, { eventId: 'evt_f', timestampS: AT })) as unknown as Record<string, string>;

describe('verifyCallback refuses', () => {
  it('a timestamp more than the tolerance ahead of now, as one more than the tolerance behind', async () => {
    const signed = await signedAt();
    const at = async (nowS: number, toleranceS?: number) => verifyCallback(SECRET, signed, BODY, { nowS, ...(toleranceS ? { toleranceS } : {}) });
    expect(await at(AT - 300)).toBe(true);
    expect(await at(AT - 301)).toBe(false);
    expect(await at(AT + 300)).toBe(true);
    expect(await at(AT + 301)).toBe(false);
    expect(await at(AT - 60, 59)).toBe(false);
    expect(await at(AT - 60, 60)).toBe(true);
  });

  it('the HMAC-Authorization signature cut short, or with a character more', async () => {
    const signed = await signedAt();
    const spec = (authorization: string) => ({ 'HMAC-Random-Key': signed['HMAC-Random-Key']!, 'HMAC-Authorization': authorization });
    const full = signed['HMAC-Authorization']!;
    expect(await verifyCallback(SECRET, spec(full), BODY)).toBe(true);
    for (const forged of [full.slice(0, -2), full.slice(0, 32), full.slice(0, 2), `${full}00`]) {
      expect(await verifyCallback(SECRET, spec(forged), BODY), forged).toBe(false);
    }
  });

  it('the webhook-signature cut short, or with a byte more', async () => {
    const signed = await signedAt();
    const standard = (signature: string) => ({
      'webhook-id': signed['webhook-id']!,
      'webhook-timestamp': signed['webhook-timestamp']!,
      'webhook-signature': signature,
    });
    const full = signed['webhook-signature']!;
    const bytes = Buffer.from(full.slice('v1,'.length), 'base64');
    expect(await verifyCallback(SECRET, standard(full), BODY, { nowS: AT })).toBe(true);
    for (const forged of [bytes.subarray(0, bytes.length - 1), bytes.subarray(0, 16), bytes.subarray(0, 1), Buffer.concat([bytes, Buffer.from([0])])]) {
      expect(await verifyCallback(SECRET, standard(`v1,${forged.toString('base64')}`), BODY, { nowS: AT }), forged.toString('base64')).toBe(false);
    }
    expect(await verifyCallback(SECRET, standard('v1,'), BODY, { nowS: AT })).toBe(false);
  });
});
