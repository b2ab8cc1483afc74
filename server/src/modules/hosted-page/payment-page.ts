import { majorToCents, Status, type PaymentLinkState, type Product } from '@svc/protocol';
import { cardFormHtml } from '@svc/sdk-core/frame/markup';
import { EN_CARD, formatAmount, formatNumber, type Language, type TextKey } from '@svc/sdk-core/i18n';
import { escapeHtml, PAGE_ASSETS, renderPage } from '../consumer-pages';
import { translator, type Translate } from '../../i18n';
import { formatDuration } from './assets/duration';

/** What the consumer's page shows, from the transaction's state (docs/integrating.md#the-hosted-payment-page). */
export type PageView = 'pay' | 'declined' | 'approved' | 'refunded' | 'failed' | 'cancelled' | 'timed-out' | 'expired' | 'elsewhere';

export function viewOf(state: PaymentLinkState, now: Date): PageView {
  const timedOut = state.timeoutDate !== null && Date.parse(state.timeoutDate) <= now.getTime();
  if (state.methodType !== 'sale' && state.methodType !== 'authorize') return 'elsewhere';
  switch (state.status) {
    case Status.Pending:
      return timedOut ? 'timed-out' : 'pay';
    case Status.Declined:
      return 'declined';
    case Status.Approved:
    case Status.Authorized:
    case Status.PartiallyCaptured:
    case Status.Captured:
    case Status.AuthorizationClosed:
      return 'approved';
    case Status.Cancelled:
    case Status.Voided:
      return 'cancelled';
    case Status.TimedOut:
      return 'timed-out';
    case Status.Expired:
      return 'expired';
    case Status.Failed:
      return 'failed';
    case Status.AwaitingCommit:
      return 'elsewhere';
    case Status.PartiallyRefunded:
    case Status.Refunded:
      return 'refunded';
  }
}

/** The headings QA relies on (docs/integrating.md#accessible-names; `en`'s entries) and what each page says under it. */
const OUTCOMES: Record<Exclude<PageView, 'pay'>, { heading: TextKey; text: TextKey }> = {
  declined: { heading: 'page.declined', text: 'page.declined.text' },
  approved: { heading: 'page.approved', text: 'page.approved.text' },
  refunded: { heading: 'page.refunded', text: 'page.refunded.text' },
  failed: { heading: 'page.failed', text: 'page.failed.text' },
  cancelled: { heading: 'page.cancelled', text: 'page.cancelled.text' },
  'timed-out': { heading: 'page.timedOut', text: 'page.timedOut.text' },
  expired: { heading: 'page.expired', text: 'page.expired.text' },
  elsewhere: { heading: 'page.elsewhere', text: 'page.elsewhere.text' },
};

/** What the page's script says itself (the card rules' errors and the payment's states), handed to it in the page. */
const SCRIPT_TEXTS: readonly TextKey[] = [
  ...(Object.keys(EN_CARD) as TextKey[]),
  'page.processing',
  'page.unreachable',
  'page.tooMany',
  'page.notThrough',
  'page.checkCard',
  'page.waiting',
];

export interface PaymentPageInput {
  linkId: string;
  state: PaymentLinkState;
  /** The transaction's sequence: the page's script follows the updates after it. */
  sequence: number;
  now: Date;
  /** The page's language (?lang=, the transaction's, the browser's, else en). */
  language?: Language;
}

/** The amount as the consumer reads it in `language` (`$12.50`, `12,50 €`); null for an authorization whose amount comes later. */
export function amountLabel(state: Pick<PaymentLinkState, 'amountCents' | 'currency'>, language: Language = 'en'): string | null {
  return state.amountCents === null ? null : formatAmount(state.amountCents, state.currency, language);
}

/**
 * The pay button's name, `Pay 12.50 USD` in `en` (a name QA relies on): the number in the language's own digits and
 * separators, with the currency's code.
 */
export function payButtonLabel(state: Pick<PaymentLinkState, 'amountCents' | 'currency'>, t: Translate, language: Language): string {
  return t('page.payAmount', { amount: state.amountCents === null ? '' : formatNumber(state.amountCents, language), currency: state.currency });
}

/** The hosted payment page, `GET /pay/:linkId`: server-rendered; its script adds the card rules and live updates. */
export function renderPaymentPage({ linkId, state, sequence, now, language = 'en' }: PaymentPageInput): string {
  const t = translator(language);
  const view = viewOf(state, now);
  const amount = amountLabel(state, language);
  const business = escapeHtml(state.businessName);
  const canPay = (view === 'pay' || view === 'declined') && state.payable && amount !== null;
  const payLabel = payButtonLabel(state, t, language);
  const sections: string[] = [];
  if (view === 'pay') {
    sections.push(`<p class="business">${escapeHtml(t('page.paymentTo'))}</p>\n<h1>${business}</h1>`);
    if (amount) sections.push(`<p class="amount">${escapeHtml(amount)}</p>`);
    sections.push(statusLine(state, now, t));
  } else {
    const outcome = OUTCOMES[view];
    sections.push(
      `<h1 tabindex="-1">${escapeHtml(t(outcome.heading))}</h1>`,
      `<p class="status" role="status" data-tone="${view === 'approved' || view === 'refunded' ? 'good' : 'bad'}">${escapeHtml(t(outcome.text))}</p>`,
    );
    sections.push(summary(state, view, amount, t, language));
  }
  if (state.products.length > 0) sections.push(productTable(state, t, language));
  if (canPay) sections.push(paymentForm(payLabel, view === 'declined', t));
  return renderPage({
    title: `${view === 'pay' ? payLabel : t(OUTCOMES[view].heading)} · ${state.businessName}`,
    language,
    script: PAGE_ASSETS.payScript,
    // The countdown runs from the seconds left by the service's clock (a sandbox test clock may be ahead of the browser's).
    mainData: {
      link: linkId,
      transaction: state.TransactionNumber,
      sequence,
      view,
      'seconds-left': canPay ? secondsLeft(state, now) : null,
      texts: canPay ? JSON.stringify(Object.fromEntries(SCRIPT_TEXTS.map((key) => [key, t(key)]))) : null,
    },
    main: sections.join('\n'),
  });
}

function statusLine(state: PaymentLinkState, now: Date, t: Translate): string {
  if (state.amountCents === null) return `<p class="status" role="status">${escapeHtml(t('page.noAmount'))}</p>`;
  const lines = [`<p class="status" role="status" id="status">${escapeHtml(t('page.waiting'))}</p>`];
  if (state.timeoutDate) {
    lines.push(
      `<p class="muted" id="countdown">${escapeHtml(t('page.timeLeft'))} <span id="countdown-value">${formatDuration(secondsLeft(state, now) ?? 0)}</span></p>`,
    );
  }
  return lines.join('\n');
}

function secondsLeft(state: PaymentLinkState, now: Date): number | null {
  return state.timeoutDate === null ? null : Math.max(0, Math.ceil((Date.parse(state.timeoutDate) - now.getTime()) / 1000));
}

function summary(state: PaymentLinkState, view: PageView, amount: string | null, t: Translate, language: Language): string {
  const rows: [string, string][] = [];
  if (amount) rows.push([t('page.amount'), amount]);
  if (view === 'refunded') rows.push([t('page.refundedAmount'), formatAmount(state.refundedCents, state.currency, language)]);
  rows.push([t(view === 'approved' ? 'page.paidTo' : 'page.merchant'), state.businessName]);
  if ((view === 'approved' || view === 'refunded') && state.confirmationNumber) rows.push([t('page.confirmation'), state.confirmationNumber]);
  if (view === 'approved' && state.lastFourDigits) rows.push([t('page.card'), t('page.cardEnding', { digits: state.lastFourDigits })]);
  const note = view === 'approved' && state.methodType === 'authorize' ? `\n<p class="muted">${escapeHtml(t('page.reserved'))}</p>` : '';
  return `<dl>\n${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('\n')}\n</dl>${note}`;
}

function productTable(state: PaymentLinkState, t: Translate, language: Language): string {
  // The products' amounts are major units on the wire: to cents exactly (majorToCents), never through a float product.
  const cents = (major: number | null) => (major === null ? 0 : (majorToCents(major) ?? 0));
  const line = (p: Product) => (cents(p.amount) + cents(p.vat) - cents(p.discount)) * p.quantity;
  const rows = state.products.map(
    (p) => `<tr><td>${escapeHtml(p.name)}</td><td class="num">${p.quantity}</td><td class="num">${escapeHtml(formatNumber(line(p), language))}</td></tr>`,
  );
  const th = (key: TextKey, num = false) => `<th scope="col"${num ? ' class="num"' : ''}>${escapeHtml(t(key))}</th>`;
  return [
    `<table>\n<caption>${escapeHtml(t('page.order', { currency: state.currency }))}</caption>`,
    `<thead><tr>${th('page.item')}${th('page.quantity', true)}${th('page.lineTotal', true)}</tr></thead>`,
    `<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`,
  ].join('\n');
}

const METHODS = ['card', 'paypal', 'applepay', 'googlepay'] as const;

/** The method choice (radio buttons `Card`, `PayPal`, `Apple Pay`, `Google Pay` in `en`), the card form and the pay button. */
function paymentForm(payLabel: string, retry: boolean, t: Translate): string {
  const radio = (value: (typeof METHODS)[number]) =>
    `<label><input type="radio" name="method" value="${value}"${value === 'card' ? ' checked' : ''}> ${escapeHtml(t(`method.${value}`))}</label>`;
  return [
    retry ? `<h2>${escapeHtml(t('page.tryAgain'))}</h2>` : `<h2 class="visually-hidden">${escapeHtml(t('page.pay'))}</h2>`,
    `<fieldset>\n<legend>${escapeHtml(t('widget.methods'))}</legend>\n<div class="methods">`,
    ...METHODS.map(radio),
    '</div>\n</fieldset>',
    `<div id="card-fields">\n${cardFormHtml(t)}\n</div>`,
    '<p id="pay-error" class="error" role="alert"></p>',
    `<button type="button" id="pay-button" disabled>${escapeHtml(payLabel)}</button>`,
    `<noscript><p>${escapeHtml(t('page.noscript'))}</p></noscript>`,
  ].join('\n');
}
