import { describe, expect, it } from 'vitest';
import type dns from 'node:dns';
import { AddressNotAllowedError, callbackHostProblem, guardedLookup, guardLookup, isPublicAddress } from './address-guard';

const hostOf = (url: string) => callbackHostProblem(new URL(url));

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '::127.0.0.1',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  // Transition ranges reach IPv4 through a translator or tunnel (NAT64, SIIT, 6to4, Teredo) that may sit inside a
  // private network, whatever IPv4 address they seem to carry: the whole range is refused.
  it.each([
    '::ffff:8.8.8.8',
    '::ffff:0:8.8.8.8',
    '::ffff:0:a00:1',
    '64:ff9b::808:808',
    '64:ff9b::8.8.8.8',
    '64:ff9b:1::a00:1',
    '64:ff9b:1:ffff::1',
    '2002:a00:1::1',
    '2002:808:808::1',
    '2002::',
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  ])('%s (a transition range) is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2003::1'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('callbackHostProblem (the init-time check)', () => {
  it.each([
    'http://127.0.0.1/cb',
    'http://localhost:3000/cb',
    'http://LOCALHOST./cb',
    'http://shop.localhost/cb',
    'http://0.0.0.0/cb',
    'http://[::1]/cb',
    'http://[::ffff:127.0.0.1]/cb',
    'http://169.254.169.254/latest/meta-data',
    'http://10.0.0.5/cb',
    'http://172.16.3.4/cb',
    'http://192.168.0.10/cb',
    'http://100.64.1.1/cb',
    'http://[fc00::5]/cb',
    'http://[fe80::1]/cb',
    'http://2130706433/cb',
    'http://0x7f000001/cb',
    'http://017700000001/cb',
    'http://127.1/cb',
    'http://0x7f.1/cb',
  ])('%s is refused', (url) => {
    expect(hostOf(url)).not.toBeNull();
  });

  it.each(['https://shop.example.com/cb', 'http://93.184.216.34/cb', 'https://[2606:4700:4700::1111]/cb'])(
    '%s passes (names are checked again at connect)',
    (url) => {
      expect(hostOf(url)).toBeNull();
    },
  );
});

describe('isPublicAddress of what is not an address', () => {
  it.each(['', 'shop.example.com', '1.2.3', '[::1]', '::g'])('%j is not public', (text) => {
    expect(isPublicAddress(text)).toBe(false);
  });
});

describe('callbackHostProblem says why', () => {
  it('names the address or the loopback name', () => {
    expect(hostOf('http://10.0.0.5/cb')).toBe('10.0.0.5 is not a public address');
    expect(hostOf('http://[::1]/cb')).toBe('::1 is not a public address');
    expect(hostOf('http://Shop.LOCALHOST./cb')).toBe('shop.localhost is a loopback name');
    expect(hostOf('http://localhost/cb')).toBe('localhost is a loopback name');
    expect(hostOf('http://notlocalhost/cb')).toBeNull();
  });
});

describe('guardLookup (the check at connect)', () => {
  type Answer = { error: NodeJS.ErrnoException | null; address: string | dns.LookupAddress[]; family?: number };
  /** Looks `hostname` up through the guard around a resolver that answers `addresses` (or `error`), as a socket would. */
  function lookUp(addresses: dns.LookupAddress[], options: dns.LookupOptions = {}, error: NodeJS.ErrnoException | null = null) {
    const asked: { hostname: string; options: dns.LookupAllOptions }[] = [];
    const lookup = guardLookup((hostname, allOptions, callback) => {
      asked.push({ hostname, options: allOptions });
      callback(error, error ? [] : addresses);
    });
    return new Promise<Answer & { asked: typeof asked }>((resolve) =>
      lookup('shop.example.com', options, (e, address, family) => resolve({ error: e, address, family, asked })),
    );
  }

  it('hands back the first address (all of them when asked for all) when every one is public, asking for all, unsorted', async () => {
    const addresses = [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ];
    const one = await lookUp(addresses, { family: 0 });
    expect(one).toMatchObject({ error: null, address: '93.184.216.34', family: 4 });
    expect(one.asked).toEqual([{ hostname: 'shop.example.com', options: { family: 0, all: true, verbatim: true } }]);
    const all = await lookUp(addresses, { all: true });
    expect(all).toMatchObject({ error: null, address: addresses });
  });

  it('refuses the name when any address is not public, or when there is none', async () => {
    const mixed = await lookUp([
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ]);
    expect(mixed.error).toBeInstanceOf(AddressNotAllowedError);
    expect(mixed.error).toMatchObject({
      name: 'AddressNotAllowedError',
      code: 'EADDRNOTALLOWED',
      message: 'shop.example.com resolves to 10.0.0.1, which callbacks may not reach',
    });
    expect(mixed.address).toEqual([]);
    const none = await lookUp([]);
    expect(none.error).toMatchObject({ code: 'EADDRNOTALLOWED', message: 'shop.example.com resolves to nothing, which callbacks may not reach' });
  });

  it('passes a resolver error on as it is', async () => {
    const failure = Object.assign(new Error('getaddrinfo ENOTFOUND shop.example.com'), { code: 'ENOTFOUND' });
    const failed = await lookUp([{ address: '93.184.216.34', family: 4 }], {}, failure);
    expect(failed.error).toBe(failure);
    expect(failed.address).toEqual([]);
  });
});

describe('guardedLookup (the guard around the system resolver)', () => {
  it('refuses a name the system resolves to loopback', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup('localhost', {}, (e) => resolve(e)));
    expect(error).toBeInstanceOf(AddressNotAllowedError);
    expect(error?.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), which callbacks may not reach$/);
  });
});
