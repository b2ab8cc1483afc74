import { formatAmount, type Language } from '@svc/sdk-core/i18n';
import { translator } from '../../i18n';
import { smsShape } from '../../messages/sms-encoding';

/** One SMS segment in GSM-7 (docs/integrating.md#links-by-sms-and-e-mail: the link SMS fits one for ordinary business names). */
export const SMS_SEGMENT_CHARACTERS = 160;
/** A link SMS in UCS-2 (Hebrew, Arabic, Russian) may take this many segments (67 UTF-16 units each). */
export const UCS2_MAX_SEGMENTS = 2;

export interface LinkMessageFacts {
  businessName: string;
  /** null for an authorization whose amount comes later. */
  amountCents: number | null;
  currency: string;
  /** The hosted payment page (`qrURL`). */
  url: string;
  /** The consumer's language (init's `language`, else `en`). */
  language: Language;
}

/** The amount as the link's page writes it (the language's currency format), or with the currency's code. */
export const amountOf = ({ amountCents, currency, language }: LinkMessageFacts, display: 'symbol' | 'code' = 'symbol'): string =>
  amountCents === null ? '' : formatAmount(amountCents, currency, language, display);

/** Intl's and French typography's no-break spaces: GSM-7 has none. */
const NO_BREAK_SPACES = /[\u00a0\u202f]/g;

/** Fits the budget: one GSM-7 segment, or up to two UCS-2 segments. */
function fits(text: string): boolean {
  const shape = smsShape(text);
  return shape.encoding === 'gsm7' ? shape.segments === 1 : shape.segments <= UCS2_MAX_SEGMENTS;
}

/**
 * How the SMS is worded for a business name: the amount as the page writes it. Where only the amount's sign (₪ in an
 * English SMS) or a no-break space would make the SMS UCS-2 (70 characters a segment instead of 160), it writes plain
 * spaces and, if need be, the currency's code instead (`ILS 1,234.50`); a language or a name that needs UCS-2 anyway
 * keeps the page's form.
 */
function smsWording(facts: LinkMessageFacts): (business: string) => string {
  const t = translator(facts.language);
  const key = facts.amountCents === null ? 'link.sms.noAmount' : 'link.sms';
  const worded =
    (display: 'symbol' | 'code', plainSpaces: boolean) =>
    (business: string): string => {
      const text = t(key, { business, amount: amountOf(facts, display), url: facts.url });
      return plainSpaces ? text.replace(NO_BREAK_SPACES, ' ') : text;
    };
  const choices = [worded('symbol', false), worded('symbol', true), worded('code', true)];
  return choices.find((render) => smsShape(render(facts.businessName)).encoding === 'gsm7') ?? choices[0]!;
}

/**
 * The SMS: business, amount and link, in the consumer's language, in one GSM-7 segment (160 characters) or, when the
 * language or the business name needs UCS-2, in two segments. A business name too long for that is shortened (with
 * "..."), never the amount or the link.
 */
export function linkSmsText(facts: LinkMessageFacts): string {
  const render = smsWording(facts);
  const full = render(facts.businessName);
  if (fits(full)) return full;
  const name = [...facts.businessName];
  for (let keep = name.length - 1; keep >= 0; keep -= 1) {
    const shortened = render(`${name.slice(0, keep).join('').trimEnd()}...`);
    if (fits(shortened)) return shortened;
  }
  return render('');
}
