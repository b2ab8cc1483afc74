import { formatCents } from '@svc/protocol';

/** One SMS segment in GSM-7 (docs/integrating.md#links-by-sms-and-e-mail: the link SMS fits one for ordinary business names). */
export const SMS_SEGMENT_CHARACTERS = 160;

export interface LinkMessageFacts {
  businessName: string;
  /** null for an authorization whose amount comes later. */
  amountCents: number | null;
  currency: string;
  /** The hosted payment page (`qrURL`). */
  url: string;
}

function ask({ amountCents, currency }: LinkMessageFacts): string {
  return amountCents === null ? 'asks you to approve a payment' : `asks you to pay ${formatCents(amountCents)} ${currency}`;
}

/**
 * The SMS: business, amount and link, in one 160-character segment. A business name too long for the segment is
 * shortened (with "..."), never the amount or the link.
 */
export function linkSmsText(facts: LinkMessageFacts): string {
  const tail = ` ${ask(facts)}: ${facts.url}`;
  const room = SMS_SEGMENT_CHARACTERS - tail.length;
  const name = facts.businessName.length <= room ? facts.businessName : `${facts.businessName.slice(0, Math.max(0, room - 3)).trimEnd()}...`;
  return `${name}${tail}`;
}

/** The e-mail: the same facts, with room to say what the link is. */
export function linkEmailText(facts: LinkMessageFacts): string {
  return [
    'Hello,',
    '',
    `${facts.businessName} ${ask(facts)}.`,
    '',
    `Pay securely here: ${facts.url}`,
    '',
    'The page shows what you are paying for before you pay. If you did not expect this message, you can ignore it.',
  ].join('\n');
}
