import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signCallback, signSpecHmac, signStandardWebhook, verifyCallback, verifySpecHmac, verifyStandardWebhook } from './signing';

/** The edges of signing.ts the round-trip tests do not reach: malformed input, header combinations, the key cache. */
const keyBytes = Buffer.from('0123456789abcdef0123456789abcdef');
const secret = `whsec_${keyBytes.toString('base64')}`;
const body = '{"TransactionNumber":"ABC","status":5}';
const now = 1_700_000_000;
const headerOf = (headers: Record<string, string>) => (name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

/** A spec signature (and its random key) whose byte at `index` is below 16, so its hex pair is "0x". */
async function signatureWithSmallByte(index: number): Promise<{ randomKey: string; signature: string }> {
  for (let n = 0; ; n++) {
    const randomKey = n.toString(16).padStart(32, '0');
    const signature = await signSpecHmac(secret, randomKey, body);
    if (signature[index * 2] === '0') return { randomKey, signature };
  }
}

describe('the spec signature as text', () => {
  it('is hex pairs only: a pair with a non-hex character is refused, even where parseInt would read the same byte', async () => {
    for (const index of [0, 31]) {
      const { randomKey, signature } = await signatureWithSmallByte(index);
      expect(await verifySpecHmac(secret, randomKey, signature, body)).toBe(true);
      // "0a" and "az" both parse as 10.
      const pair = `${signature[index * 2 + 1]}z`;
      const forged = `${signature.slice(0, index * 2)}${pair}${signature.slice(index * 2 + 2)}`;
      expect(forged).toHaveLength(64);
      expect(await verifySpecHmac(secret, randomKey, forged, body)).toBe(false);
    }
  });

  it('refuses an odd number of hex digits without throwing, and takes surrounding white space and capitals', async () => {
    const randomKey = '00112233445566778899aabbccddeeff';
    const signature = await signSpecHmac(secret, randomKey, body);
    expect(await verifySpecHmac(secret, randomKey, `${signature}0`, body)).toBe(false);
    expect(await verifySpecHmac(secret, randomKey, signature.slice(1), body)).toBe(false);
    expect(await verifySpecHmac(secret, randomKey, ` ${signature}\n`, body)).toBe(true);
    expect(await verifySpecHmac(secret, randomKey, signature.toUpperCase(), body)).toBe(true);
  });

  it('wants a random key of exactly 32 lowercase hex characters, even when the signature covers another', async () => {
    for (const randomKey of [`x${'0'.repeat(32)}`, `${'0'.repeat(32)}x`, 'A'.repeat(32), '0'.repeat(31), '']) {
      const signature = createHmac('sha256', secret).update(`${randomKey}${body}`).digest('hex');
      expect(await verifySpecHmac(secret, randomKey, signature, body), randomKey).toBe(false);
    }
  });
});

describe('Standard Webhooks edges', () => {
  it('takes the secret with or without its whsec_ prefix, and refuses (sign) or fails (verify) one that is not base64', async () => {
    const withPrefix = await signStandardWebhook(secret, 'evt_1', now, body);
    expect(await signStandardWebhook(keyBytes.toString('base64'), 'evt_1', now, body)).toBe(withPrefix);
    await expect(signStandardWebhook('whsec_!!not base64!!', 'evt_1', now, body)).rejects.toThrow('the secret is not whsec_ followed by base64');
    const headers = { id: 'evt_1', timestamp: String(now), signature: withPrefix };
    expect(await verifyStandardWebhook('whsec_!!not base64!!', headers, body, { nowS: now })).toBe(false);
  });

  it('refuses a timestamp with anything but digits, even when the signature covers it', async () => {
    for (const timestamp of [`x${now}`, `${now}x`, `${now}.0`, ` ${now}`, '']) {
      const signature = `v1,${createHmac('sha256', keyBytes).update(`evt_1.${timestamp}.${body}`).digest('base64')}`;
      expect(await verifyStandardWebhook(secret, { id: 'evt_1', timestamp, signature }, body, { nowS: now }), timestamp).toBe(false);
    }
  });
});

describe('verifyCallback with some headers missing', () => {
  it('checks by the scheme whose headers are all there; half of the other one is ignored', async () => {
    const headers = await signCallback(secret, 'evt_9', body, now);
    const { 'HMAC-Random-Key': randomKey, 'HMAC-Authorization': authorization, ...standard } = headers;
    const { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature, ...spec } = headers;
    const verify = (h: Record<string, string>) => verifyCallback(secret, headerOf(h), body, { nowS: now });
    expect(await verify({ ...standard, 'HMAC-Random-Key': randomKey })).toBe(true);
    expect(await verify({ ...standard, 'HMAC-Authorization': authorization })).toBe(true);
    expect(await verify({ ...spec, 'webhook-id': id, 'webhook-timestamp': timestamp })).toBe(true);
    expect(await verify({ ...spec, 'webhook-timestamp': timestamp, 'webhook-signature': signature })).toBe(true);
    expect(await verify({ ...spec, 'webhook-id': id, 'webhook-signature': signature })).toBe(true);
    // Half of each is no signature at all.
    expect(await verify({ 'HMAC-Random-Key': randomKey, 'webhook-id': id, 'webhook-timestamp': timestamp })).toBe(false);
    expect(await verify({ 'HMAC-Authorization': authorization, 'webhook-signature': signature })).toBe(false);
  });
});

describe('the imported key cache', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  /** signing.ts afresh (an empty cache) and a count of its key imports. */
  async function freshSigning() {
    vi.resetModules();
    const imports = vi.spyOn(crypto.subtle, 'importKey');
    return { signing: await import('./signing'), imports };
  }

  it('imports a key once per usage, not for keys it already holds, and never as extractable', async () => {
    const { signing, imports } = await freshSigning();
    await signing.signSpecHmac(secret, '0'.repeat(32), body);
    await signing.signSpecHmac(secret, '1'.repeat(32), body);
    expect(imports).toHaveBeenCalledTimes(1);
    expect(imports).toHaveBeenLastCalledWith('raw', expect.anything(), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    await signing.verifySpecHmac(secret, '0'.repeat(32), '0'.repeat(64), body);
    expect(imports).toHaveBeenCalledTimes(2);
    expect(imports).toHaveBeenLastCalledWith('raw', expect.anything(), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    await signing.signStandardWebhook(secret, 'evt_1', now, body);
    expect(imports).toHaveBeenCalledTimes(3);
  });

  it('keeps 256 keys, forgetting the oldest past that', async () => {
    const { signing, imports } = await freshSigning();
    const sign = (n: number) => signing.signSpecHmac(`whsec_key${n}`, '0'.repeat(32), body);
    for (let n = 0; n < 256; n++) await sign(n);
    expect(imports).toHaveBeenCalledTimes(256);
    await sign(0);
    expect(imports).toHaveBeenCalledTimes(256);
    await sign(256);
    await sign(1);
    expect(imports).toHaveBeenCalledTimes(257);
    await sign(0);
    expect(imports).toHaveBeenCalledTimes(258);
  });

  it('does not keep a failed import: the next call tries again', async () => {
    const { signing, imports } = await freshSigning();
    imports.mockRejectedValueOnce(new Error('no key today'));
    await expect(signing.signSpecHmac(secret, '0'.repeat(32), body)).rejects.toThrow('no key today');
    expect(await signing.signSpecHmac(secret, '0'.repeat(32), body)).toMatch(/^[0-9a-f]{64}$/);
    expect(imports).toHaveBeenCalledTimes(2);
  });
});
