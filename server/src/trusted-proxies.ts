import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

/**
 * Which proxies in front of the service may say who the client is (in X-Forwarded-For): the number of them (each
 * appends the address it saw, so the client's is the n-th entry from the right), or their addresses and subnets.
 */
export type TrustedProxies = { hops: number } | { addresses: string[] };

const FORGED_ADDRESS = 'any client there could write its own address into X-Forwarded-For';

/** TRUST_PROXY: `0`/`false`, a number of proxies, or a comma-separated list of their addresses and subnets. */
export const trustedProxiesSetting = z.string().transform((value, ctx): TrustedProxies => {
  const text = value.trim().toLowerCase();
  if (text === 'false' || text === 'no') return { hops: 0 };
  if (text === 'true' || text === 'yes') {
    ctx.addIssue({
      code: 'custom',
      message:
        'no longer takes true: it trusted the left-most X-Forwarded-For entry, which the client writes. Give the number of proxies in front of ' +
        'the service (TRUST_PROXY=1 for one) or their addresses (TRUST_PROXY=10.0.0.5,10.1.0.0/16)',
    });
    return z.NEVER;
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops <= 16) return { hops };
  }
  const addresses = text.split(',').map((entry) => entry.trim());
  if (!addresses.every(isAddressOrSubnet)) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be the number of proxies in front of the service (0 to 16) or a comma-separated list of their addresses or subnets',
    });
    return z.NEVER;
  }
  const everything = addresses.find((entry) => entry.endsWith('/0'));
  if (everything) {
    ctx.addIssue({
      code: 'custom',
      message: `${everything} trusts every address, as true did: ${FORGED_ADDRESS}. Give the proxies' own addresses or subnets (TRUST_PROXY=10.0.0.5,10.1.0.0/16)`,
    });
    return z.NEVER;
  }
  return { addresses };
});

function isAddressOrSubnet(entry: string): boolean {
  const [address = '', prefix, ...more] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || more.length > 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

type Family = 'ipv4' | 'ipv6';
const FULL_LENGTH: Record<Family, number> = { ipv4: 32, ipv6: 128 };

/** The networks a proxy of the operator's own sits in: private, shared (CGNAT), loopback and link-local. */
const NON_PUBLIC = (
  [
    ['10.0.0.0', 8, 'ipv4'],
    ['100.64.0.0', 10, 'ipv4'],
    ['127.0.0.0', 8, 'ipv4'],
    ['169.254.0.0', 16, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['::1', 128, 'ipv6'],
    ['fc00::', 7, 'ipv6'],
    ['fe80::', 10, 'ipv6'],
  ] as const
).map(([network, prefix, family]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, prefix, family };
});

/**
 * Whether a TRUST_PROXY entry is a subnet reaching beyond the private, shared, loopback and link-local networks: a
 * client on the public internet inside it would be trusted to name itself. One address is the operator's own proxy
 * wherever it is, never such a range.
 */
export function coversPublicAddresses(entry: string): boolean {
  const [address = '', prefix] = entry.split('/');
  const family: Family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const length = prefix === undefined ? FULL_LENGTH[family] : Number(prefix);
  if (length === FULL_LENGTH[family]) return false;
  return !NON_PUBLIC.some((network) => network.family === family && length >= network.prefix && network.list.check(address, family));
}

/** The start-up error for a public range TRUST_PROXY names without TRUST_PROXY_ALLOW_PUBLIC_RANGES. */
export function publicRangeProblem(proxies: TrustedProxies): string | null {
  const range = 'addresses' in proxies ? proxies.addresses.find(coversPublicAddresses) : undefined;
  if (range === undefined) return null;
  return (
    `${range} covers public addresses: ${FORGED_ADDRESS}. Name the proxies' own addresses or private subnets, or, when they ` +
    'really sit in that range (a CDN in front of the service), set TRUST_PROXY_ALLOW_PUBLIC_RANGES=true'
  );
}
