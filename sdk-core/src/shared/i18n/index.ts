/**
 * `@svc/sdk-core/i18n`: the catalogues and the language rules every consumer surface shares. DOM-free except
 * `loadCatalogue` / `LocaleState` (fetch, navigator), so the server imports the rest for its pages and messages.
 */
export { EN, EN_CARD, EN_EXPRESS, EN_PAGES, EN_WIDGET, type Catalogue, type TextKey } from './en';
export {
  acceptLanguageTags,
  directionOf,
  firstSupported,
  resolveLocale,
  supportedLanguage,
  unsupportedLocaleMessage,
  type Direction,
  type Language,
  type ResolvedLocale,
} from './languages';
export { formatAmount, formatAmountNumber } from './amounts';
export { fill, formatDate, Texts, type TextParams } from './texts';
export { catalogueUrl, loadCatalogue } from './catalogue-loader';
export { LocaleState } from './locale-state';
