/**
 * The one way an amount is written for a shopper, on every surface (the widgets, Express's sheet, the hosted page, the
 * terminal simulator, the link's SMS and e-mail): the language's currency format (Intl), so a heading, a button and a
 * message write the same amount alike.
 */
import { directionOf, type Language } from './languages';

/**
 * `sign` (`$12.50`, `12,50 €`: what a shopper reads), `code` (`USD 12.50`: where a sign would not do, such as an SMS
 * whose sign is outside GSM-7), or `number` (`12.50`: the digits, grouping and decimals alone, for a text that names
 * the currency's code itself, such as the hosted page's pay button `Pay 12.50 USD`).
 */
export type AmountStyle = 'sign' | 'code' | 'number';

const NUMBER_PARTS: ReadonlySet<string> = new Set(['minusSign', 'integer', 'group', 'decimal', 'fraction']);
/** Left-to-right isolate and its end (Unicode's LRI and PDI). */
const [LRI, PDI] = ['\u2066', '\u2069'];

/**
 * `1250, 'EUR', 'de'` → `12,50 €`. In a right-to-left language a currency sign with Latin letters (`US$`, `CA$`) is
 * isolated left to right: without it the bidirectional algorithm splits it around the number (`$US 1,234.50` in
 * Arabic), wherever the amount stands (a heading, a sentence, a page title).
 */
export function formatAmount(cents: number, currency: string, language: Language, style: AmountStyle = 'sign'): string {
  const parts = new Intl.NumberFormat(language, { style: 'currency', currency, currencyDisplay: style === 'code' ? 'code' : 'symbol' }).formatToParts(cents / 100);
  if (style === 'number') return parts.flatMap((part) => (NUMBER_PARTS.has(part.type) ? [part.value] : [])).join('');
  const isolate = directionOf(language) === 'rtl';
  return parts.map(({ type, value }) => (isolate && type === 'currency' && /[A-Za-z]/.test(value) ? `${LRI}${value}${PDI}` : value)).join('');
}
