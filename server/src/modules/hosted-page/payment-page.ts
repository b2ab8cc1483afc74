import { formatCents, majorToCents, Status, type PaymentLinkState, type Product } from '@svc/protocol';
import { CARD_FORM_HTML } from '@svc/sdk-core/frame/markup';
import { escapeHtml, PAGE_ASSETS, renderPage } from '../consumer-pages';
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

/** The headings QA relies on (docs/integrating.md#accessible-names) and what each page says under it. */
const OUTCOMES: Record<Exclude<PageView, 'pay'>, { heading: string; text: string }> = {
  declined: { heading: 'Payment declined', text: 'The payment was declined and nothing was charged. You can try again with another card or a wallet.' },
  approved: { heading: 'Payment approved', text: 'Thank you. Keep the confirmation number for your records.' },
  refunded: { heading: 'Payment refunded', text: 'The merchant gave money back to your payment method; it may take a few days to show.' },
  failed: { heading: 'Payment failed', text: 'The payment could not be processed and nothing was charged. Ask the merchant for a new payment link.' },
  cancelled: { heading: 'Payment cancelled', text: 'The merchant cancelled this payment. Nothing was charged.' },
  'timed-out': { heading: 'Payment timed out', text: 'The time to pay this link has run out. Ask the merchant for a new payment link.' },
  expired: { heading: 'Payment expired', text: 'This payment has expired and anything reserved on your card was released.' },
  elsewhere: { heading: 'Payment not available here', text: "This payment is made in the merchant's own checkout, not on this page." },
};

export interface PaymentPageInput {
  linkId: string;
  state: PaymentLinkState;
  /** The transaction's sequence: the page's script follows the updates after it. */
  sequence: number;
  now: Date;
}

/** The amount as the consumer reads it, `12.50 USD` (null for an authorization whose amount comes later). */
export function amountLabel(state: Pick<PaymentLinkState, 'amountCents' | 'currency'>): string | null {
  return state.amountCents === null ? null : `${formatCents(state.amountCents)} ${state.currency}`;
}

/** The hosted payment page, `GET /pay/:linkId`: server-rendered; its script adds the card rules and live updates. */
export function renderPaymentPage({ linkId, state, sequence, now }: PaymentPageInput): string {
  const view = viewOf(state, now);
  const amount = amountLabel(state);
  const business = escapeHtml(state.businessName);
  const canPay = (view === 'pay' || view === 'declined') && state.payable && amount !== null;
  const sections: string[] = [];
  if (view === 'pay') {
    sections.push(`<p class="business">Payment to</p>\n<h1>${business}</h1>`);
    if (amount) sections.push(`<p class="amount">${escapeHtml(amount)}</p>`);
    sections.push(statusLine(state, now));
  } else {
    const outcome = OUTCOMES[view];
    sections.push(
      `<h1 tabindex="-1">${outcome.heading}</h1>`,
      `<p class="status" role="status" data-tone="${view === 'approved' || view === 'refunded' ? 'good' : 'bad'}">${escapeHtml(outcome.text)}</p>`,
    );
    sections.push(summary(state, view, amount));
  }
  if (state.products.length > 0) sections.push(productTable(state));
  if (canPay) sections.push(paymentForm(amount!, view === 'declined'));
  return renderPage({
    title: `${view === 'pay' ? `Pay ${amount ?? ''}` : OUTCOMES[view].heading} · ${state.businessName}`,
    script: PAGE_ASSETS.payScript,
    // The countdown runs from the seconds left by the service's clock (a sandbox test clock may be ahead of the browser's).
    mainData: { link: linkId, transaction: state.TransactionNumber, sequence, view, 'seconds-left': canPay ? secondsLeft(state, now) : null },
    main: sections.join('\n'),
  });
}

function statusLine(state: PaymentLinkState, now: Date): string {
  if (state.amountCents === null) return '<p class="status" role="status">The merchant has not set the amount of this payment yet.</p>';
  const lines = ['<p class="status" role="status" id="status">Waiting for your payment</p>'];
  if (state.timeoutDate) {
    lines.push(`<p class="muted" id="countdown">Time left to pay: <span id="countdown-value">${formatDuration(secondsLeft(state, now) ?? 0)}</span></p>`);
  }
  return lines.join('\n');
}

function secondsLeft(state: PaymentLinkState, now: Date): number | null {
  return state.timeoutDate === null ? null : Math.max(0, Math.ceil((Date.parse(state.timeoutDate) - now.getTime()) / 1000));
}

function summary(state: PaymentLinkState, view: PageView, amount: string | null): string {
  const rows: [string, string][] = [];
  if (amount) rows.push(['Amount', amount]);
  if (view === 'refunded') rows.push(['Refunded', `${formatCents(state.refundedCents)} ${state.currency}`]);
  rows.push([view === 'approved' ? 'Paid to' : 'Merchant', state.businessName]);
  if ((view === 'approved' || view === 'refunded') && state.confirmationNumber) rows.push(['Confirmation number', state.confirmationNumber]);
  if (view === 'approved' && state.lastFourDigits) rows.push(['Card', `ending in ${state.lastFourDigits}`]);
  const note =
    view === 'approved' && state.methodType === 'authorize'
      ? '\n<p class="muted">The amount is reserved on your payment method; the merchant charges it when your order is ready.</p>'
      : '';
  return `<dl>\n${rows.map(([term, value]) => `<dt>${term}</dt><dd>${escapeHtml(value)}</dd>`).join('\n')}\n</dl>${note}`;
}

function productTable(state: PaymentLinkState): string {
  // The products' amounts are major units on the wire: to cents exactly (majorToCents), never through a float product.
  const cents = (major: number | null) => (major === null ? 0 : (majorToCents(major) ?? 0));
  const line = (p: Product) => (cents(p.amount) + cents(p.vat) - cents(p.discount)) * p.quantity;
  const rows = state.products.map(
    (p) => `<tr><td>${escapeHtml(p.name)}</td><td class="num">${p.quantity}</td><td class="num">${formatCents(line(p))}</td></tr>`,
  );
  return [
    `<table>\n<caption>Order (${escapeHtml(state.currency)})</caption>`,
    '<thead><tr><th scope="col">Item</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Total</th></tr></thead>',
    `<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`,
  ].join('\n');
}

const WALLETS = [
  ['paypal', 'PayPal'],
  ['applepay', 'Apple Pay'],
  ['googlepay', 'Google Pay'],
] as const;

/** The method choice (radio buttons `Card`, `PayPal`, `Apple Pay`, `Google Pay`), the card form and the pay button. */
function paymentForm(amount: string, retry: boolean): string {
  const radio = (value: string, label: string, checked = false) =>
    `<label><input type="radio" name="method" value="${value}"${checked ? ' checked' : ''}> ${label}</label>`;
  return [
    retry ? '<h2>Try again</h2>' : '<h2 class="visually-hidden">Pay</h2>',
    '<fieldset>\n<legend>Payment method</legend>\n<div class="methods">',
    radio('card', 'Card', true),
    ...WALLETS.map(([value, label]) => radio(value, label)),
    '</div>\n</fieldset>',
    `<div id="card-fields">\n${CARD_FORM_HTML}\n</div>`,
    '<p id="pay-error" class="error" role="alert"></p>',
    `<button type="button" id="pay-button" disabled>Pay ${escapeHtml(amount)}</button>`,
    '<noscript><p>Turn on JavaScript in your browser to pay on this page.</p></noscript>',
  ].join('\n');
}
