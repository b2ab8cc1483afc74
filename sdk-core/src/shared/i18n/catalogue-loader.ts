/**
 * Loads a language's catalogue from the service (`{apiBase}/sdk/locales/<language>.json`, published with the SDK
 * files). Once per page and language; `en` is in the bundle and never fetched. A failed load resolves to `{}` (the
 * surface keeps speaking `en`) with one warning.
 */
import type { Catalogue } from './en';
import type { Language } from './languages';
import { issueWarning } from '../warnings';

const loads = new Map<string, Promise<Partial<Catalogue>>>();

export function catalogueUrl(apiBase: string, language: Language): string {
  return `${apiBase.replace(/\/+$/, '')}/sdk/locales/${language}.json`;
}

export function loadCatalogue(apiBase: string, language: Language): Promise<Partial<Catalogue>> {
  if (language === 'en') return Promise.resolve({});
  const url = catalogueUrl(apiBase, language);
  let load = loads.get(url);
  if (!load) {
    load = fetchCatalogue(url).catch((error: unknown) => {
      loads.delete(url);
      issueWarning('locale-unavailable', `The ${language} texts could not be loaded from ${url} (${String(error)}); the widget speaks English.`);
      return {};
    });
    loads.set(url, load);
  }
  return load;
}

async function fetchCatalogue(url: string): Promise<Partial<Catalogue>> {
  const response = await fetch(url, { credentials: 'omit' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null) throw new Error('not a catalogue');
  // Only texts are taken: a value that is not a string is left out (its key falls back to en).
  return Object.fromEntries(Object.entries(body).filter(([, value]) => typeof value === 'string')) as Partial<Catalogue>;
}
