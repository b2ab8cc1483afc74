import { formatNumber, type Language } from '@svc/sdk-core/i18n';
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

/** The amount as a message writes it: the language's digits and separators and the currency's code (no sign outside GSM-7). */
const amountOf = ({ amountCents, language }: LinkMessageFacts): string => (amountCents === null ? '' : formatNumber(amountCents, language));

/** Fits the budget: one GSM-7 segment, or up to two UCS-2 segments. */
function fits(text: string): boolean {
  const shape = smsShape(text);
  return shape.encoding === 'gsm7' ? shape.segments === 1 : shape.segments <= UCS2_MAX_SEGMENTS;
}

/**
 * The SMS: business, amount and link, in the consumer's language, in one GSM-7 segment (160 characters) or, when the
 * language or the business name needs UCS-2, in two segments. A business name too long for that is shortened (with
 * "..."), never the amount or the link.
 */
export function linkSmsText(facts: LinkMessageFacts): string {
  const t = translator(facts.language);
  const render = (business: string) =>
    t(facts.amountCents === null ? 'link.sms.noAmount' : 'link.sms', { business, amount: amountOf(facts), currency: facts.currency, url: facts.url });
  const full = render(facts.businessName);
  if (fits(full)) return full;
  const name = [...facts.businessName];
  for (let keep = name.length - 1; keep >= 0; keep -= 1) {
    const shortened = render(`${name.slice(0, keep).join('').trimEnd()}...`);
    if (fits(shortened)) return shortened;
  }
  return render('');
}

/** The e-mail: the same facts in the consumer's language, with room to say what the link is. */
export function linkEmailText(facts: LinkMessageFacts): string {
  const t = translator(facts.language);
  const ask =
    facts.amountCents === null
      ? t('link.email.ask.noAmount', { business: facts.businessName })
      : t('link.email.ask', { business: facts.businessName, amount: amountOf(facts), currency: facts.currency });
  return [t('link.email.greeting'), '', ask, '', t('link.email.link', { url: facts.url }), '', t('link.email.note')].join('\n');
}
