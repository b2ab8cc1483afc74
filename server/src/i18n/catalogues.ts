/**
 * The consumer's languages on the server: the same catalogues the browser surfaces use (sdk-core's `en` and the JSON
 * files published at /sdk/locales/<language>.json), for the consumer pages and the payment link's SMS and e-mail.
 */
import { EN, fill, type Catalogue, type Language, type TextKey, type TextParams } from '@svc/sdk-core/i18n';
import ar from '@svc/sdk-core/locales/ar.json';
import de from '@svc/sdk-core/locales/de.json';
import es from '@svc/sdk-core/locales/es.json';
import fr from '@svc/sdk-core/locales/fr.json';
import he from '@svc/sdk-core/locales/he.json';
import ru from '@svc/sdk-core/locales/ru.json';

export const CATALOGUES: Readonly<Record<Language, Catalogue>> = { en: EN, he, ar, ru, fr, de, es };

/** Each language's name in itself, for the pages' language switch. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  he: 'עברית',
  ar: 'العربية',
  ru: 'Русский',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
};

export type Translate = (key: TextKey, params?: TextParams) => string;

/** `t` in `language` (a key the catalogue lacks is `en`'s; the catalogue test in sdk-core fails first). */
export function translator(language: Language): Translate {
  const catalogue = CATALOGUES[language];
  return (key, params) => fill(catalogue[key] ?? EN[key], params);
}
