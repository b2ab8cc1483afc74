import { describe, expect, it } from 'vitest';
import { cardFrameCsp } from './card-frame-csp.js';
import { OriginSchema } from './credentials';

/** Origins that are not a scheme, a host name and a port: each would reach frame-ancestors as something else. */
const NOT_ORIGINS = [
  'https://*.shop.example', // a wildcard: any subdomain could frame the card fields
  'https://shop.example, https://evil.example', // a second source
  'https://a,b.example',
  "https://a'b.example",
  'https://a"b.example',
  'https://a;b.example', // a directive break
  'https://shop_1.example',
  'https://[::1]:3000', // CSP has no way to write an IPv6 literal
  'https://shop.example/path',
  'ftp://shop.example',
  '*',
  "'self'",
];

describe('an allowed origin', () => {
  it.each(NOT_ORIGINS)('refuses %s', (value) => {
    expect(OriginSchema.safeParse(value).success).toBe(false);
  });

  it('takes a scheme, a host name or IPv4 address and a port, as the browser writes it', () => {
    const origins = [
      'https://shop.example.com',
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'https://xn--bcher-kva.example',
      'https://a-b.c9.example:8443',
    ];
    for (const origin of origins) expect(OriginSchema.parse(origin)).toBe(origin);
    expect(OriginSchema.parse('https://shop.example.com/')).toBe('https://shop.example.com');
  });
});

describe('the card frame CSP', () => {
  it('puts one origin in frame-ancestors', () => {
    expect(cardFrameCsp('https://shop.example.com:8443')).toMatch(/^frame-ancestors https:\/\/shop\.example\.com:8443; default-src 'none';/);
    expect(cardFrameCsp(null)).toMatch(/^default-src 'none';/);
  });

  it.each(NOT_ORIGINS)('refuses to write %s into frame-ancestors', (value) => {
    expect(() => cardFrameCsp(value)).toThrow(/not an origin/);
  });
});
