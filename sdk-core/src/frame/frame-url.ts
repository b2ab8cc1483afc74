/**
 * What a frame learns from its own URL: the origin of the page it was made for (the `origin` parameter, which the server
 * checked against the client ID and put into frame-ancestors), its instance id (`#instance=…`) and the language its
 * host asked for when it made the frame (`lang`). A frame without origin and instance id stays inert.
 */
import { LANGUAGES } from '@svc/protocol/light';
import type { Language } from '../shared/i18n/languages';

/** The `origin` URL parameter, if it is exactly an http(s) origin (no path, no trailing slash). */
export function parentOriginFrom(search: string): string | null {
  const value = new URLSearchParams(search).get('origin');
  if (!value) return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value ? value : null;
  } catch {
    return null; // not a URL: the frame stays inert
  }
}

/** The instance id from the URL hash (`#instance=<id>`), if it has the protocol's shape. */
export function instanceIdFrom(hash: string): string | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('instance');
  return value && /^[A-Za-z0-9_-]{8,64}$/.test(value) ? value : null;
}

/** The `lang` URL parameter, if it is exactly one of the languages; else null (the frame starts in `en`). */
export function languageFrom(search: string): Language | null {
  const value = new URLSearchParams(search).get('lang');
  return value !== null && (LANGUAGES as readonly string[]).includes(value) ? (value as Language) : null;
}
