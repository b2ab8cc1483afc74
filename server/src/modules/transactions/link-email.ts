import { directionOf, fill } from '@svc/sdk-core/i18n';
import { translator } from '../../i18n';
import { escapeHtml } from '../../html-escape';
import { amountOf, type LinkMessageFacts } from './link-message-texts';

/** The link e-mail: its subject, its text (`body`), and the same text as HTML (multipart/alternative). */
export interface LinkEmail {
  subject: string;
  body: string;
  html: string;
}

/**
 * The e-mail: the subject names the business; the text says who asks for how much, and the link; the HTML part says
 * the same in the language's direction (`dir="rtl"` in he and ar, which a plain text part cannot say) with the link
 * as a link.
 */
export function linkEmail(facts: LinkMessageFacts): LinkEmail {
  const t = translator(facts.language);
  const business = facts.businessName;
  const ask = facts.amountCents === null ? t('link.email.ask.noAmount', { business }) : t('link.email.ask', { business, amount: amountOf(facts) });
  const subject = t('link.email.subject', { business });
  const dir = directionOf(facts.language);
  const link = `<a href="${escapeHtml(facts.url)}">${escapeHtml(facts.url)}</a>`;
  const paragraphs = [
    escapeHtml(t('link.email.greeting')),
    escapeHtml(ask),
    fill(escapeHtml(t('link.email.link')), { url: link }),
    escapeHtml(t('link.email.note')),
  ];
  const html = [
    '<!doctype html>',
    `<html lang="${facts.language}" dir="${dir}">`,
    `<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    `<body dir="${dir}">`,
    ...paragraphs.map((paragraph) => `<p>${paragraph}</p>`),
    '</body>',
    '</html>',
  ].join('\n');
  const body = [t('link.email.greeting'), '', ask, '', t('link.email.link', { url: facts.url }), '', t('link.email.note')].join('\n');
  return { subject, body, html };
}
