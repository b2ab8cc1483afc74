/**
 * A `postgres://` URL may name several hosts, comma-separated (`postgres://svc@h1:5432,h2:5433/svc`), as libpq and
 * postgres.js take them: the driver tries them in turn (with `target_session_attrs=read-write`, until one is the
 * primary). `new URL` cannot parse such a list; these helpers split it from the rest.
 */
const PARTS = /^(postgres(?:ql)?:\/\/(?:[^@/?#]*@)?)([^/?#]*)(.*)$/s;

function partsOf(url: string): { head: string; hosts: string; tail: string } | null {
  const match = PARTS.exec(url);
  return match ? { head: match[1]!, hosts: match[2]!, tail: match[3]! } : null;
}

/** Every `host[:port]` the URL names, in order (one for an ordinary URL). */
export function hostsOf(url: string): string[] {
  return partsOf(url)?.hosts.split(',') ?? [];
}

/** The same URL with its first host only: what `new URL` parses, with the user, password, database and options of all. */
export function firstHostUrl(url: string): string {
  const parts = partsOf(url);
  return parts ? `${parts.head}${parts.hosts.split(',')[0]}${parts.tail}` : url;
}

/** Whether the URL names several hosts. */
export function isMultiHost(url: string): boolean {
  return hostsOf(url).length > 1;
}

/** The URL with `hosts` in the place of its host list (each `host[:port]`). */
export function withHosts(url: string, hosts: string[]): string {
  const parts = partsOf(url);
  return parts ? `${parts.head}${hosts.join(',')}${parts.tail}` : url;
}
