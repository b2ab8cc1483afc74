/**
 * The one way an amount is written for a shopper, on every surface (the widgets, Express's sheet, the hosted page, the
 * terminal simulator, the link's SMS and e-mail): the language's currency format (Intl), so a heading, a button and a
 * message write the same amount alike.
 */
import { directionOf, type Language } from './languages';

/**
 * `1250, 'EUR', 'de'` → `12,50 €`; with `display: 'code'`, `EUR 12.50` (where a sign would not do, such as an SMS whose
 * sign is outside GSM-7). In a right-to-left language a currency sign with Latin letters (`US$`, `CA$`) is isolated
 * left to right (LRI … PDI): without it the bidirectional algorithm splits it around the number (`$US 1,234.50` in
 * Arabic), wherever the amount stands (a heading, a sentence, a page title).
 */
export function formatAmount(cents: number, currency: string, language: Language, display: 'symbol' | 'code' = 'symbol'): string {
  const rtl = directionOf(language) === 'rtl';
  return new Intl.NumberFormat(language, { style: 'currency', currency, currencyDisplay: display })
    .formatToParts(cents / 100)
    .map(({ type, value }) => (rtl && type === 'currency' && /[a-z]/i.test(value) ? `\u2066${value}\u2069` : value))
    .join('');
}

const NUMBER_PARTS: ReadonlySet<string> = new Set(['minusSign', 'integer', 'group', 'decimal', 'fraction']);

/**
 * `123450, 'ILS', 'en'` → `1,234.50`: the number as the currency format writes it (its digits, grouping and decimals),
 * without the sign, for a text that names the currency's code itself (the hosted page's pay button `Pay 12.50 USD`).
 */
export function formatAmountNumber(cents: number, currency: string, language: Language): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency })
    .formatToParts(cents / 100)
    .flatMap(({ type, value }) => (NUMBER_PARTS.has(type) ? [value] : []))
    .join('');
}
