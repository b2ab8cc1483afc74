import { acceptLanguageTags, firstSupported, supportedLanguage, type Language } from '@svc/sdk-core/i18n';

export interface LanguageSources {
  /** `?lang=` as the page was opened with (anything: an unsupported value is skipped). */
  query: unknown;
  /** The transaction's `language` (init's optional field), when the page belongs to one. */
  transaction?: string | null;
  /** The browser's Accept-Language header. */
  acceptLanguage?: string | undefined;
}

/** A consumer page's language: `?lang=`, else the transaction's, else the browser's first supported, else `en`. */
export function pageLanguage({ query, transaction, acceptLanguage }: LanguageSources): Language {
  const asked = typeof query === 'string' ? supportedLanguage(query) : null;
  const stored = transaction ? supportedLanguage(transaction) : null;
  return asked ?? stored ?? firstSupported(acceptLanguageTags(acceptLanguage)) ?? 'en';
}
