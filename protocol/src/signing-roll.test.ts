import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signCallback, verifyCallback, verifySpecHmac } from './signing';

const OLD = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NEW = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const OTHER = 'whsec_3G6ikNV7GcFEU+zGJQuVbVzBVzaSXBkp';
const body = '{"TransactionNumber":"T1","status":0}';

describe('signing during a secret roll', () => {
  it('signs with both secrets: the spec header by the previous one, -Next by the new one, a webhook-signature entry by each', async () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = await signCallback({ secret: NEW, previousSecret: OLD }, 'evt_1', body, now);
    const lookup = (name: string) => (headers as unknown as Record<string, string>)[Object.keys(headers).find((k) => k.toLowerCase() === name)!];
    expect(await verifySpecHmac(OLD, headers['HMAC-Random-Key'], headers['HMAC-Authorization'], body)).toBe(true);
    expect(await verifySpecHmac(NEW, headers['HMAC-Random-Key'], headers['HMAC-Authorization-Next']!, body)).toBe(true);
    for (const secret of [OLD, NEW]) {
      expect(await verifyCallback(secret, lookup, body, { nowS: now })).toBe(true);
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    }
    expect(await verifyCallback(OTHER, lookup, body, { nowS: now })).toBe(false);
    expect(() => new Webhook(OTHER).verify(body, headers)).toThrow();
  });

  it('without a previous secret, signs as before: one signature, no -Next header', async () => {
    const headers = await signCallback({ secret: NEW, previousSecret: null }, 'evt_2', body, 1_700_000_000, '0'.repeat(32));
    expect(headers).toEqual(await signCallback(NEW, 'evt_2', body, 1_700_000_000, '0'.repeat(32)));
    expect(headers['HMAC-Authorization-Next']).toBeUndefined();
    expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
  });

  it('a -Next header does not let a wrong spec signature through, nor a wrong -Next one', async () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = await signCallback({ secret: NEW, previousSecret: OLD }, 'evt_3', body, now);
    const onlySpec = {
      'hmac-random-key': headers['HMAC-Random-Key'],
      'hmac-authorization': '00'.repeat(32),
      'hmac-authorization-next': headers['HMAC-Authorization-Next']!,
    };
    const lookup = (name: string) => onlySpec[name as keyof typeof onlySpec];
    expect(await verifyCallback(NEW, lookup, body)).toBe(true);
    expect(await verifyCallback(OLD, lookup, body)).toBe(false);
    const tampered = { ...onlySpec, 'hmac-authorization-next': '00'.repeat(32) };
    expect(await verifyCallback(NEW, (name) => tampered[name as keyof typeof tampered], body)).toBe(false);
  });
});
