import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { TrustedProxies } from '../trusted-proxies';

/** Whether the hop at `index` (0: the socket's peer, then X-Forwarded-For from the right), whose address is `address`, is a trusted proxy. */
export type ProxyTrust = (address: string, index: number) => boolean;

/**
 * The trust TRUST_PROXY describes, in the form Express's `trust proxy` setting takes a function: app.ts gives Express
 * this same function, so `req.ip` and the websocket upgrade name the same client.
 */
export function proxyTrust(setting: TrustedProxies): ProxyTrust {
  if ('hops' in setting) {
    const { hops } = setting;
    return (_address, index) => index < hops;
  }
  const proxies = new BlockList();
  for (const entry of setting.addresses) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) proxies.addAddress(address, family);
    else proxies.addSubnet(address, Number(prefix), family);
  }
  return (address) => {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && proxies.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * The client's address: the socket's peer, unless it is a trusted proxy, in which case the address that proxy saw
 * (the right-most X-Forwarded-For entry), and so on back while the hop is trusted. Entries further left were written
 * by the client and are never taken: rotating them changes nothing. The one answer for HTTP (as `req.ip`) and for
 * the websocket upgrade.
 */
export function clientAddress(req: Pick<IncomingMessage, 'socket' | 'headers'>, trust: ProxyTrust): string {
  let address = req.socket.remoteAddress ?? 'unknown';
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .reverse();
  for (let index = 0; index < forwarded.length && trust(address, index); index++) address = forwarded[index]!;
  return address;
}

/** `::ffff:10.0.0.2` (an IPv4 peer on a dual-stack socket) as `10.0.0.2`. */
function unmapped(address: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return v4 ?? address;
}
