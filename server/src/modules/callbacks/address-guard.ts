import dns from 'node:dns';
import net from 'node:net';

/**
 * The SSRF guard (docs/design/callback-delivery.md#the-address-guard): callbacks may not reach loopback, private, link-local (metadata), CGNAT,
 * multicast, unspecified, reserved or documentation addresses, in IPv4 or IPv6. IPv6 transition ranges (IPv4-mapped
 * and -translated, NAT64, 6to4, Teredo) are refused whole: they reach IPv4 through a translator or tunnel that may sit
 * inside a private network, whatever IPv4 address they seem to carry, and no callback server needs one. Odd IPv4 literals (2130706433, 0x7f.1, 017700000001) are normalised by the URL parser before the
 * check. Names are resolved and every address checked; the connection then goes to the address that passed.
 */
const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['::', 96], // IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (incl. fd00:ec2::254 metadata)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}
/** Checked for IPv6 addresses only: a BlockList matches IPv4 addresses against the IPv4-mapped range too. */
const transition = new net.BlockList();
for (const [network, prefix] of [
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b::', 96], // NAT64, well-known prefix
  ['64:ff9b:1::', 48], // NAT64, local-use prefixes
  ['2002::', 16], // 6to4
  ['2001::', 32], // Teredo
] as const) {
  transition.addSubnet(network, prefix, 'ipv6');
}

/** Whether a callback may connect to this IP address. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family === 6) return !blocked.check(address, 'ipv6') && !transition.check(address, 'ipv6');
  return false;
}

export class AddressNotAllowedError extends Error {
  override name = 'AddressNotAllowedError';
  readonly code = 'EADDRNOTALLOWED';
}

/** The host of a URL as a bare address when it is an IP literal (brackets removed), else null. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return net.isIP(host) ? host : null;
}

/**
 * The init-time check: an IP literal or a loopback name that is not public is refused at once. Names are
 * checked on their resolved addresses at each connect (`guardedLookup`).
 */
export function callbackHostProblem(url: URL): string | null {
  const literal = literalAddress(url);
  if (literal !== null) return isPublicAddress(literal) ? null : `${literal} is not a public address`;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is a loopback name`;
  return null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request / net.connect: resolves the name, refuses if any address is not public (a name
 * that also resolves privately is not trusted), and hands back only checked addresses, which the socket then
 * connects to, so a second resolution (DNS rebinding) cannot swap them.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  guardLookup(dns.lookup)(hostname, options, callback);
}

type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

/** The guard around any resolver (tests hand in one that maps a name to a loopback address). */
export function guardLookup(resolve: Resolver) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => guarded(resolve, hostname, options, callback);
}

function guarded(resolve: Resolver, hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  resolve(hostname, { ...options, all: true, verbatim: true } as dns.LookupAllOptions, (error, addresses) => {
    if (error) return callback(error, []);
    const list = addresses as dns.LookupAddress[];
    const refused = list.find((a) => !isPublicAddress(a.address));
    if (refused || list.length === 0) {
      return callback(new AddressNotAllowedError(`${hostname} resolves to ${refused?.address ?? 'nothing'}, which callbacks may not reach`), []);
    }
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}
