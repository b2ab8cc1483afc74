/**
 * A surface's language as it changes: resolves the requested `locale`, warns once about an unsupported one, loads the
 * catalogue and hands it to the surface's `Texts` — the latest request wins, an earlier load arriving late is dropped.
 * The surface draws its texts again in `onChange`; nothing typed is lost (only texts and `dir` change).
 */
import type { TextKey } from './en';
import { loadCatalogue } from './catalogue-loader';
import { resolveLocale, unsupportedLocaleMessage, type Language } from './languages';
import { Texts } from './texts';
import { issueWarning } from '../warnings';

export class LocaleState<K extends TextKey> {
  readonly texts: Texts<K>;
  #requested: unknown = Symbol('none');
  #wanted: Language | null = null;

  constructor(
    base: Readonly<Record<K, string>>,
    private readonly onChange: () => void,
  ) {
    this.texts = new Texts(base);
  }

  /** The language asked for last (resolved), whose texts are in use or on their way; `en` before any request. */
  get language(): Language {
    return this.#wanted ?? this.texts.language;
  }

  /** Asks for `requested` (`auto`, a language, anything a page passed); resolves once its texts are in use. */
  async request(requested: unknown, apiBase: string, browserLanguages: readonly string[] = navigator.languages): Promise<void> {
    if (requested === this.#requested) return;
    this.#requested = requested;
    const { language, unsupported } = resolveLocale(requested, browserLanguages);
    if (unsupported) issueWarning('locale-unsupported', unsupportedLocaleMessage(requested));
    await this.use(language, apiBase);
  }

  /** Speaks `language` (already resolved: the card frame gets it from its host). */
  async use(language: Language, apiBase: string): Promise<void> {
    this.#wanted = language;
    const catalogue = await loadCatalogue(apiBase, language);
    if (this.#wanted !== language) return;
    this.texts.use(language, catalogue);
    this.onChange();
  }
}
