/** A catalogue's texts with `{name}` placeholders, and the amounts through Intl. No ICU: a text never branches. */
import type { Catalogue, TextKey } from './en';
import { directionOf, type Direction, type Language } from './languages';

export type TextParams = Readonly<Record<string, string | number>>;

/** `fill('Pay {amount}', { amount: '€5.00' })` → `Pay €5.00`; an unknown placeholder stays as written. */
export function fill(template: string, params?: TextParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * One surface's texts in one language: the `en` part the bundle carries (`base`) and the loaded catalogue over it. A
 * key the loaded catalogue lacks falls back to `en` (and the catalogue test fails).
 */
export class Texts<K extends TextKey> {
  #language: Language = 'en';
  #catalogue: Partial<Catalogue> = {};

  constructor(private readonly base: Readonly<Record<K, string>>) {}

  get language(): Language {
    return this.#language;
  }

  get dir(): Direction {
    return directionOf(this.#language);
  }

  /** Speaks `language` with `catalogue` (`{}` for `en`). */
  use(language: Language, catalogue: Partial<Catalogue>): void {
    this.#language = language;
    this.#catalogue = catalogue;
  }

  t(key: K, params?: TextParams): string {
    return fill(this.#catalogue[key] ?? this.base[key], params);
  }
}

export function formatDate(date: Date, language: Language, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return new Intl.DateTimeFormat(language, options).format(date);
}
