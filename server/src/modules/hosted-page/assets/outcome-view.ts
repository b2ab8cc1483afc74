/**
 * The hosted page's view of a transaction and its outcome section (heading, status line and summary). The server draws
 * it in the page (payment-page.ts); pay.js draws the same from `POST /pay/:linkId`'s answer once paid, instead of
 * fetching the page again. Browser-safe: no zod, no server module but the HTML escaping.
 */
import type { PaymentLinkState } from '@svc/protocol';
import { formatAmount, type Language, type TextKey, type TextParams } from '@svc/sdk-core/i18n';
import { escapeHtml } from '../../../html-escape';

/** What the consumer's page shows, from the transaction's state (docs/integrating.md#the-hosted-payment-page). */
export type PageView = 'pay' | 'authenticating' | 'declined' | 'approved' | 'refunded' | 'failed' | 'cancelled' | 'timed-out' | 'expired' | 'elsewhere';

type Translate = (key: TextKey, params?: TextParams) => string;

export function viewOf(state: Pick<PaymentLinkState, 'methodType' | 'statusName' | 'timeoutDate'>, now: Date): PageView {
  const timedOut = state.timeoutDate !== null && Date.parse(state.timeoutDate) <= now.getTime();
  if (state.methodType !== 'sale' && state.methodType !== 'authorize') return 'elsewhere';
  switch (state.statusName) {
    case 'Pending':
      return timedOut ? 'timed-out' : 'pay';
    case 'Declined':
      return 'declined';
    case 'Approved':
    case 'Authorized':
    case 'PartiallyCaptured':
    case 'Captured':
    case 'AuthorizationClosed':
      return 'approved';
    case 'Cancelled':
    case 'Voided':
      return 'cancelled';
    case 'TimedOut':
      return 'timed-out';
    case 'Expired':
      return 'expired';
    case 'Failed':
      return 'failed';
    case 'AwaitingCommit':
      return 'elsewhere';
    case 'AwaitingAuthentication':
      return 'authenticating';
    case 'PartiallyRefunded':
    case 'Refunded':
      return 'refunded';
  }
}

/** The headings QA relies on (docs/integrating.md#accessible-names; `en`'s entries) and what each page says under it. */
interface Outcome {
  heading: TextKey;
  text: TextKey;
}

export const OUTCOMES: Record<Exclude<PageView, 'pay'>, Outcome> = {
  declined: { heading: 'page.declined', text: 'page.declined.text' },
  approved: { heading: 'page.approved', text: 'page.approved.text' },
  refunded: { heading: 'page.refunded', text: 'page.refunded.text' },
  failed: { heading: 'page.failed', text: 'page.failed.text' },
  cancelled: { heading: 'page.cancelled', text: 'page.cancelled.text' },
  'timed-out': { heading: 'page.timedOut', text: 'page.timedOut.text' },
  expired: { heading: 'page.expired', text: 'page.expired.text' },
  elsewhere: { heading: 'page.elsewhere', text: 'page.elsewhere.text' },
  authenticating: { heading: 'page.authenticating', text: 'page.authenticating.text' },
};

/** A refund of part of the payment (PartiallyRefunded) says so; the rest of the refunded view is the same. */
const PARTLY_REFUNDED: Outcome = { heading: 'page.refundedPartly', text: 'page.refundedPartly.text' };

/** The heading and text of `view` for this transaction. */
function outcomeOf(state: Pick<PaymentLinkState, 'statusName'>, view: Exclude<PageView, 'pay'>): Outcome {
  return view === 'refunded' && state.statusName === 'PartiallyRefunded' ? PARTLY_REFUNDED : OUTCOMES[view];
}

/** The texts of the approved outcome, which pay.js draws itself (handed to it in the page with its other texts). */
export const APPROVED_TEXTS: readonly TextKey[] = [
  'page.approved',
  'page.approved.text',
  'page.amount',
  'page.paidTo',
  'page.paymentTo',
  'page.confirmation',
  'page.card',
  'page.cardEnding',
  'page.reserved',
];

/** The amount as the consumer reads it in `language` (`$12.50`, `12,50 €`); null for an authorization whose amount comes later. */
export function amountLabel(state: Pick<PaymentLinkState, 'amountCents' | 'currency'>, language: Language = 'en'): string | null {
  return state.amountCents === null ? null : formatAmount(state.amountCents, state.currency, language);
}

/** The page's title: the outcome's heading and the business (the pay view's is its pay button's name). */
export const outcomeTitle = (state: Pick<PaymentLinkState, 'businessName' | 'statusName'>, view: Exclude<PageView, 'pay'>, t: Translate): string =>
  `${t(outcomeOf(state, view).heading)} · ${state.businessName}`;

/**
 * The outcome's heading (focused when the view changes), its status line and the summary of the payment. `amount`: the
 * amount as `amountLabel` writes it, when the caller has it already (pay.js takes the one the server wrote in the page:
 * a page's first Intl formatter costs tens of milliseconds).
 */
export function outcomeHtml(
  state: PaymentLinkState,
  view: Exclude<PageView, 'pay'>,
  t: Translate,
  language: Language,
  amount: string | null = amountLabel(state, language),
): string {
  const outcome = outcomeOf(state, view);
  return [
    `<h1 tabindex="-1">${escapeHtml(t(outcome.heading))}</h1>`,
    `<p class="status" role="status" data-tone="${view === 'approved' || view === 'refunded' ? 'good' : 'bad'}">${escapeHtml(t(outcome.text))}</p>`,
    summary(state, view, amount, t, language),
  ].join('\n');
}

function summary(state: PaymentLinkState, view: PageView, amount: string | null, t: Translate, language: Language): string {
  const rows: [string, string][] = [];
  if (amount) rows.push([t('page.amount'), amount]);
  if (view === 'refunded') rows.push([t('page.refundedAmount'), formatAmount(state.refundedCents, state.currency, language)]);
  // An approved authorization is reserved, not paid yet: its business is the payment's, as the note under it says.
  const reserved = view === 'approved' && state.methodType === 'authorize';
  rows.push([t(view !== 'approved' ? 'page.merchant' : reserved ? 'page.paymentTo' : 'page.paidTo'), state.businessName]);
  if ((view === 'approved' || view === 'refunded') && state.confirmationNumber) rows.push([t('page.confirmation'), state.confirmationNumber]);
  if (view === 'approved' && state.lastFourDigits) rows.push([t('page.card'), t('page.cardEnding', { digits: state.lastFourDigits })]);
  const note = reserved ? `\n<p class="muted">${escapeHtml(t('page.reserved'))}</p>` : '';
  return `<dl>\n${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('\n')}\n</dl>${note}`;
}
