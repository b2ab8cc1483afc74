/** Which language a surface speaks: `auto` from the browser's languages, a supported tag, or `en` for anything else. */
import { LANGUAGES, RTL_LANGUAGES } from '@svc/protocol/light';

export type Language = (typeof LANGUAGES)[number];
export type Direction = 'ltr' | 'rtl';

/** `he`, `he-IL`, `HE` → `he`; null when the tag's language is not one of LANGUAGES. */
export function supportedLanguage(tag: string): Language | null {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (LANGUAGES as readonly string[]).includes(primary) ? (primary as Language) : null;
}

/** The first supported language of a preference list (navigator.languages, Accept-Language's tags), or null. */
export function firstSupported(tags: readonly string[]): Language | null {
  for (const tag of tags) {
    const language = supportedLanguage(tag);
    if (language) return language;
  }
  return null;
}

export function directionOf(language: Language): Direction {
  return (RTL_LANGUAGES as readonly string[]).includes(language) ? 'rtl' : 'ltr';
}

export interface ResolvedLocale {
  language: Language;
  /** The page asked for a language the service does not have (it gets `en`; the caller warns once). */
  unsupported: boolean;
}

/**
 * `config({ locale })` / `props.locale` → a language: absent or `auto` follows the browser (`navigator.languages`),
 * a supported tag is used (`fr-CA` → `fr`), anything else is `en` and `unsupported`.
 */
export function resolveLocale(requested: unknown, browserLanguages: readonly string[]): ResolvedLocale {
  if (requested === undefined || requested === null || requested === '' || requested === 'auto') {
    return { language: firstSupported(browserLanguages) ?? 'en', unsupported: false };
  }
  const language = typeof requested === 'string' ? supportedLanguage(requested) : null;
  return language ? { language, unsupported: false } : { language: 'en', unsupported: true };
}

/** The warning an unsupported `locale` gets (once per page). */
export function unsupportedLocaleMessage(requested: unknown): string {
  return `locale ${JSON.stringify(String(requested))} is not supported; the widget speaks English. Use "auto" or one of ${LANGUAGES.join(', ')}.`;
}

/** `Accept-Language: he-IL,he;q=0.9,en;q=0.8` → the tags by preference (q=0 left out). */
export function acceptLanguageTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, q }) => tag !== '' && tag !== '*' && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
}
