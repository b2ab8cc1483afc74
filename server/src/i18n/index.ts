/** The consumer's languages on the server: catalogues, `t`, and how a page picks its language. */
export { CATALOGUES, LANGUAGE_NAMES, translator, type Translate } from './catalogues';
export { pageLanguage, type LanguageSources } from './page-language';
