import { describe, expect, it } from 'vitest';
import { originAllowed } from './origin-check';

const ALLOWED = ['https://shop.example.com', 'http://localhost:3000'];

describe('originAllowed', () => {
  it.each(ALLOWED)('lets %s in, being on the list', (origin) => {
    expect(originAllowed(ALLOWED, origin)).toBe(true);
  });

  it.each([
    ['a longer host', 'https://shop.example.com.evil.net'],
    ['a host that ends like it', 'https://evilshop.example.com'],
    ['a subdomain', 'https://pay.shop.example.com'],
    ['a shorter host', 'https://example.com'],
    ['a shorter host of the same start', 'https://shop.example.co'],
    ['another port', 'https://shop.example.com:8443'],
    ['another scheme', 'http://shop.example.com'],
    ['another port of an allowed localhost', 'http://localhost:30000'],
    ['no port where one is allowed', 'http://localhost'],
    ['a path after it', 'https://shop.example.com/'],
    ['other letters', 'https://SHOP.example.com'],
    ['an opaque origin', 'null'],
    ['nothing', ''],
  ])('refuses %s (%s)', (_what, origin) => {
    expect(originAllowed(ALLOWED, origin)).toBe(false);
  });

  it('refuses a request without an Origin, and any origin when the list is empty', () => {
    expect(originAllowed(ALLOWED, undefined)).toBe(false);
    expect(originAllowed([], 'https://shop.example.com')).toBe(false);
    expect(originAllowed([], undefined)).toBe(false);
  });
});
