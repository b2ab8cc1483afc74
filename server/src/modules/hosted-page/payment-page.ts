import { majorToCents, type PaymentLinkState, type Product } from '@svc/protocol';
import { cardFormHtml } from '@svc/sdk-core/frame/markup';
import { EN_CARD, formatAmountNumber, type Language, type TextKey } from '@svc/sdk-core/i18n';
import { escapeHtml, PAGE_ASSETS, renderPage } from '../consumer-pages';
import { translator, type Translate } from '../../i18n';
import { formatDuration } from './assets/duration';
import { amountLabel, APPROVED_TEXTS, outcomeHtml, outcomeTitle, viewOf } from './assets/outcome-view';

/**
 * What the page's script says itself (the card rules' errors, the payment's states, and the approved outcome it draws
 * from the payment's answer), handed to it in the page.
 */
const SCRIPT_TEXTS: readonly TextKey[] = [
  ...(Object.keys(EN_CARD) as TextKey[]),
  'page.processing',
  'page.unreachable',
  'page.tooMany',
  'page.notThrough',
  'page.checkCard',
  'page.waiting',
  ...APPROVED_TEXTS,
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

/**
 * The pay button's name, `Pay 12.50 USD` in `en` (a name QA relies on): the number as the language's currency format
 * writes it (the heading's digits, grouping and decimals: `Pay 1,234.50 ILS` under `₪1,234.50`), with the currency's code.
 */
export function payButtonLabel(state: Pick<PaymentLinkState, 'amountCents' | 'currency'>, t: Translate, language: Language): string {
  const amount = state.amountCents === null ? '' : formatAmountNumber(state.amountCents, state.currency, language);
  return t('page.payAmount', { amount, currency: state.currency });
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
    sections.push(outcomeHtml(state, view, t, language));
  }
  if (state.products.length > 0) sections.push(productTable(state, t, language));
  if (canPay) sections.push(paymentForm(payLabel, view === 'declined', t, state.maxInstallments));
  return renderPage({
    title: view === 'pay' ? `${payLabel} · ${state.businessName}` : outcomeTitle(state, view, t),
    language,
    script: PAGE_ASSETS.payScript,
    // The countdown runs from the seconds left by the service's clock (a sandbox test clock may be ahead of the browser's).
    mainData: {
      link: linkId,
      transaction: state.TransactionNumber,
      sequence,
      view,
      'seconds-left': canPay ? secondsLeft(state, now) : null,
      // The amount as written here, and of what: the confirmation pay.js draws reuses it (no Intl formatter on its way).
      amount: canPay ? `${state.amountCents} ${state.currency}` : null,
      'amount-label': canPay ? amount : null,
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

function productTable(state: PaymentLinkState, t: Translate, language: Language): string {
  // The products' amounts are major units on the wire: to cents exactly (majorToCents), never through a float product.
  const cents = (major: number | null) => (major === null ? 0 : (majorToCents(major) ?? 0));
  const line = (p: Product) => (cents(p.amount) + cents(p.vat) - cents(p.discount)) * p.quantity;
  const rows = state.products.map(
    (p) =>
      `<tr><td>${escapeHtml(p.name)}</td><td class="num">${p.quantity}</td><td class="num">${escapeHtml(formatAmountNumber(line(p), state.currency, language))}</td></tr>`,
  );
  const th = (key: TextKey, num = false) => `<th scope="col"${num ? ' class="num"' : ''}>${escapeHtml(t(key))}</th>`;
  return [
    `<table>\n<caption>${escapeHtml(t('page.order', { currency: state.currency }))}</caption>`,
    `<thead><tr>${th('page.item')}${th('page.quantity', true)}${th('page.lineTotal', true)}</tr></thead>`,
    `<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`,
  ].join('\n');
}

const METHODS = ['card', 'paypal', 'applepay', 'googlepay'] as const;

/**
 * The number of payments beside the card fields, when the payment may be split: named as in the widgets
 * (`card.installments.label`, `Number of payments` in `en`, a name QA relies on).
 */
function installmentsField(t: Translate, maxInstallments: number): string {
  if (maxInstallments <= 1) return '';
  const options = Array.from({ length: maxInstallments }, (_, i) => `<option value="${i + 1}"${i === 0 ? ' selected' : ''}>${i + 1}</option>`);
  return `\n<div class="field">\n<label for="installments">${escapeHtml(t('card.installments.label'))}</label>\n<select id="installments" name="installments">${options.join('')}</select>\n</div>`;
}

/** The method choice (radio buttons `Card`, `PayPal`, `Apple Pay`, `Google Pay` in `en`), the card form and the pay button. */
function paymentForm(payLabel: string, retry: boolean, t: Translate, maxInstallments: number): string {
  const radio = (value: (typeof METHODS)[number]) =>
    `<label><input type="radio" name="method" value="${value}"${value === 'card' ? ' checked' : ''}> ${escapeHtml(t(`method.${value}`))}</label>`;
  return [
    retry ? `<h2>${escapeHtml(t('page.tryAgain'))}</h2>` : `<h2 class="visually-hidden">${escapeHtml(t('page.pay'))}</h2>`,
    `<fieldset>\n<legend>${escapeHtml(t('widget.methods'))}</legend>\n<div class="methods">`,
    ...METHODS.map(radio),
    '</div>\n</fieldset>',
    `<div id="card-fields">\n${cardFormHtml(t)}${installmentsField(t, maxInstallments)}\n</div>`,
    '<p id="pay-error" class="error" role="alert"></p>',
    `<button type="button" id="pay-button" disabled>${escapeHtml(payLabel)}</button>`,
    `<noscript><p>${escapeHtml(t('page.noscript'))}</p></noscript>`,
  ].join('\n');
}
