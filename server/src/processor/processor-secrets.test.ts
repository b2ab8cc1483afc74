import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openCredentials, sealCredentials } from './processor-secrets';

const key = randomBytes(32).toString('base64');
const credentials = { secretKey: 'sk_live_very_secret_value', webhookSecret: 'whsec_also_secret' };

describe('sealed processor credentials', () => {
  it('open with the key for the merchant they were sealed for, and show nothing of the secret', () => {
    const sealed = sealCredentials(credentials, key, 'merchant-a');
    expect(sealed).not.toContain('sk_live');
    expect(sealed).not.toContain(Buffer.from('sk_live').toString('base64').slice(0, 8));
    expect(openCredentials(sealed, key, 'merchant-a')).toEqual(credentials);
    expect(sealCredentials(credentials, key, 'merchant-a')).not.toBe(sealed); // a fresh nonce each time
  });

  it('do not open for another merchant, under another key, or altered', () => {
    const sealed = sealCredentials(credentials, key, 'merchant-a');
    expect(() => openCredentials(sealed, key, 'merchant-b')).toThrow();
    expect(() => openCredentials(sealed, randomBytes(32).toString('base64'), 'merchant-a')).toThrow();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64');
    body[0] = body[0]! ^ 1;
    expect(() => openCredentials([...parts.slice(0, 3), body.toString('base64')].join('.'), key, 'merchant-a')).toThrow();
  });
});
