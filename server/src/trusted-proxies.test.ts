import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env';

function problemsOf(source: Record<string, string>): string[] {
  try {
    loadEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(source)} to be refused`);
}

const trusted = (source: Record<string, string>) => loadEnv(source).TRUST_PROXY;

describe('TRUST_PROXY ranges', () => {
  it('refuses a range of every address, as it refuses true, even when public ranges are allowed', () => {
    for (const TRUST_PROXY of ['0.0.0.0/0', '::/0', '10.0.0.2, ::/0']) {
      for (const allow of [{}, { TRUST_PROXY_ALLOW_PUBLIC_RANGES: 'true' }] as Record<string, string>[]) {
        expect(problemsOf({ TRUST_PROXY, ...allow })).toEqual([expect.stringMatching(/^TRUST_PROXY .*every address.*X-Forwarded-For/)]);
      }
    }
  });

  it('refuses a range that covers public addresses, naming it, the reason and the setting that allows it', () => {
    for (const range of ['8.8.0.0/16', '0.0.0.0/1', '10.0.0.0/7', '172.0.0.0/8', '192.168.0.0/15', '2001:4860::/32', '::/1', 'fc00::/6']) {
      const problems = problemsOf({ TRUST_PROXY: `10.0.0.2,${range}` });
      expect(problems).toEqual([expect.stringContaining(`TRUST_PROXY ${range} covers public addresses`)]);
      expect(problems[0]).toMatch(/X-Forwarded-For.*TRUST_PROXY_ALLOW_PUBLIC_RANGES=true/);
    }
  });

  it('takes such a range when the operator allows public ranges explicitly (a CDN in front of the service)', () => {
    expect(trusted({ TRUST_PROXY: '173.245.48.0/20,2400:cb00::/32', TRUST_PROXY_ALLOW_PUBLIC_RANGES: 'true' })).toEqual({
      addresses: ['173.245.48.0/20', '2400:cb00::/32'],
    });
  });

  it('takes private, loopback, shared and link-local ranges, and single addresses anywhere', () => {
    const ranges = ['10.0.0.0/8', '10.1.0.0/16', '172.16.0.0/12', '192.168.1.0/24', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16'];
    const v6 = ['fc00::/7', 'fd12:3456::/48', 'fe80::/10', '::1/128'];
    const single = ['203.0.113.7', '8.8.8.8/32', '2001:db8::5', '2001:4860::1/128'];
    expect(trusted({ TRUST_PROXY: [...ranges, ...v6, ...single].join(',') })).toEqual({ addresses: [...ranges, ...v6, ...single] });
  });

  it('refuses the allowance as anything but true or false', () => {
    expect(problemsOf({ TRUST_PROXY_ALLOW_PUBLIC_RANGES: 'sometimes' })).toEqual([expect.stringMatching(/^TRUST_PROXY_ALLOW_PUBLIC_RANGES /)]);
  });
});
