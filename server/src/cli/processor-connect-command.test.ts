import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from './command';

const MERCHANT = '0b6f3c1e-2a4d-4e5f-8a9b-0c1d2e3f4a5b';
const usageOf = (argv: string[]) => {
  try {
    parseCommand(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('expected a usage error');
};

describe('svc processor connect', () => {
  it('takes a Stripe account, and an Adyen one', () => {
    expect(parseCommand(['processor', 'connect', '--merchant', MERCHANT, '--kind', 'stripe', '--secret-key', 'sk_live_abcdef123456'])).toEqual({
      command: 'processor connect',
      merchantId: MERCHANT,
      account: { kind: 'stripe', secretKey: 'sk_live_abcdef123456' },
    });
    const adyen = ['--kind', 'adyen', '--api-key', 'AQE1234567890abc', '--merchant-account', 'ShopECOM', '--hmac-key', '00112233445566778899AABBCCDDEEFF'];
    expect(parseCommand(['processor', 'connect', '--merchant', MERCHANT, ...adyen])).toMatchObject({ account: { kind: 'adyen', merchantAccount: 'ShopECOM' } });
  });

  it('names the wrong option without echoing a secret', () => {
    const message = usageOf(['processor', 'connect', '--merchant', MERCHANT, '--kind', 'stripe', '--secret-key', 'pk_live_notSecretButWrong']);
    expect(message).toMatch(/^--secret-key: must be a Stripe secret key/);
    expect(message).not.toContain('notSecretButWrong');
    expect(usageOf(['processor', 'connect', '--merchant', MERCHANT, '--kind', 'paypal'])).toBe('--kind must be stripe or adyen');
    expect(usageOf(['processor', 'connect', '--kind', 'stripe'])).toMatch(/--merchant ID is required/);
    expect(
      usageOf(['processor', 'connect', '--merchant', MERCHANT, '--kind', 'stripe', '--secret-key', 'sk_live_abcdef123456', '--api-key', 'AQE1234567890abc']),
    ).toMatch(/--api-key does not go with --kind stripe/);
  });
});
