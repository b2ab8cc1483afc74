/**
 * The hosted payment page's script (`/pay-assets/pay.js`). The server renders every state of the page; this script
 * adds the card form of `@svc/sdk-core/frame` (the same rules, messages and accessible names as the card frame), pays
 * once per click with an Idempotency-Key per attempt (sdk-core's `postJson`, as every browser surface posts), and follows the transaction live over the websocket
 * (`?link=`): on any update, and when the countdown runs out, it fetches the page again and swaps its <main>, so
 * one renderer (the server's) draws every state. Once paid, the confirmation is drawn from the payment's answer with
 * the server's own outcome renderer (outcome-view.ts), without fetching the page again, and with the amount as the
 * server wrote it in the page (a page's first Intl formatter would cost tens of milliseconds on the way).
 */
import type { PaymentLinkState } from '@svc/protocol';
import {
  payPaymentLinkPath,
  fillPath,
  PaymentLinkStateWire,
  RequiresActionWire,
  TransactionUpdatedNoticeWire,
  type ProblemInfo,
  type Validator,
} from '@svc/protocol/light';
import type { RequiresAction } from '@svc/protocol';
import { mountCardForm, type CardForm } from '@svc/sdk-core/frame';
import { fill, type Language, type TextKey, type TextParams } from '@svc/sdk-core/i18n';
import { LiveUpdates, paymentError, postJson } from '@svc/sdk-core/shared';
import { formatDuration } from './duration';
import { outcomeHtml, outcomeTitle, viewOf } from './outcome-view';

/** Views after which nothing the consumer can do changes the page (a merchant's capture later changes nothing here). */
const LIVE_VIEWS = new Set(['pay', 'declined', 'authenticating']);

const page = (): HTMLElement => document.getElementById('page')!;

/** The pay answer: the page's state, or (202) the bank's page the consumer must answer first (3-D Secure). */
const PayAnswerWire: Validator<PaymentLinkState | RequiresAction> = (input, path) =>
  (input as { status?: unknown } | null)?.status === 'requires_action' ? RequiresActionWire(input, path) : PaymentLinkStateWire(input, path);
const linkId = page().dataset['link']!;
const transactionNumber = page().dataset['transaction']!;

let rendered = 0;
/** The newest sequence the websocket announced. */
let announced = 0;
let card: CardForm | null = null;
let paying = false;
let countdown: ReturnType<typeof setInterval> | undefined;
/** The transaction's updates over the websocket while the consumer can still act (a refresh catches up after a drop). */
const live = new LiveUpdates({
  query: () => ({ link: linkId }),
  subscribe: () => ({ type: 'subscribe', transactionNumber, afterSequence: rendered }),
  notice: TransactionUpdatedNoticeWire,
  onNotice: (notice) => {
    announced = Math.max(announced, notice.sequence);
    followUpdates();
  },
  reconnect: () => LIVE_VIEWS.has(page().dataset['view'] ?? ''),
  onReconnect: () => void queueRefresh(),
});
let refreshing: Promise<void> = Promise.resolve();
/** The texts the server handed this script in the page's language (`data-texts`: the card rules' and the payment's states). */
let texts: Partial<Record<TextKey, string>> = {};
const t = (key: TextKey, params?: TextParams): string => fill(texts[key] ?? '', params);

/** An Idempotency-Key for one attempt; getRandomValues works on plain http too (randomUUID needs a secure context). */
function attemptKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `pay-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function selectedMethod(): string {
  return page().querySelector<HTMLInputElement>('input[name=method]:checked')?.value ?? 'card';
}

function say(id: 'pay-error' | 'status', text: string): void {
  const element = document.getElementById(id);
  if (element) element.textContent = text;
}

function setBusy(busy: boolean): void {
  const button = document.getElementById('pay-button') as HTMLButtonElement | null;
  if (button) {
    button.disabled = busy;
    button.setAttribute('aria-busy', String(busy));
  }
  card?.setBusy(busy);
  // The number of payments is part of the payment under way: not changed while it runs.
  const installments = document.getElementById('installments') as HTMLSelectElement | null;
  if (installments) installments.disabled = busy;
}

/**
 * Fetches the page again for an update announced while the consumer can still act. Not while paying: the payment's
 * answer draws the confirmation (or fetches the page for any other outcome), and an update left over is caught up after.
 */
function followUpdates(): void {
  if (!paying && announced > rendered && LIVE_VIEWS.has(page().dataset['view'] ?? '')) void queueRefresh();
}

/** Wires whatever the server rendered: the form while the transaction can be paid, the countdown, the socket. */
function bind(): void {
  const main = page();
  rendered = Number(main.dataset['sequence'] ?? 0);
  card = null;
  const button = document.getElementById('pay-button') as HTMLButtonElement | null;
  const fields = document.getElementById('card-fields');
  if (button && fields) {
    texts = JSON.parse(main.dataset['texts'] ?? '{}') as typeof texts;
    card = mountCardForm(fields, { onChange: () => undefined });
    card.setTexts({ t });
    const showCard = () => (fields.hidden = selectedMethod() !== 'card');
    for (const radio of main.querySelectorAll<HTMLInputElement>('input[name=method]')) radio.addEventListener('change', showCard);
    showCard();
    fields.querySelector('#card-form')?.addEventListener('submit', () => void pay());
    button.addEventListener('click', () => void pay());
    button.disabled = false;
  }
  startCountdown(main.dataset['secondsLeft']);
  if (LIVE_VIEWS.has(main.dataset['view'] ?? '')) live.open();
  else live.close();
}

async function pay(): Promise<void> {
  if (paying || !card) return;
  const method = selectedMethod();
  let body: unknown = { method };
  if (method === 'card') {
    card.showAllErrors();
    const input = card.cardInput();
    if (!input) return;
    const installments = Number(document.querySelector<HTMLSelectElement>('#installments')?.value ?? 1);
    body = { method: 'card', card: input, ...(installments > 1 ? { installments } : {}) };
  }
  paying = true;
  setBusy(true);
  say('pay-error', '');
  say('status', t('page.processing'));
  try {
    const refusal: { problem?: ProblemInfo } = {};
    const result = await postJson(fillPath(payPaymentLinkPath, { linkId }), body, {
      headers: { 'idempotency-key': attemptKey() },
      what: 'The payment',
      validator: PayAnswerWire,
      onProblem: (problem) => {
        refusal.problem = problem;
        return paymentError(problem);
      },
    });
    const { problem } = refusal;
    const answer = result.ok ? result.value : null;
    if (answer && 'action' in answer) {
      // The bank asks for 3-D Secure: its page takes this one's place, in the page's language, and comes back here when done.
      const bank = new URL(answer.action.url);
      bank.searchParams.set('lang', document.documentElement.lang);
      location.assign(bank.href);
      return;
    }
    if (answer && showApproved(answer)) return;
    if (!result.ok && !problem && result.error.code === 'network_error') {
      say('pay-error', t('page.unreachable'));
      return;
    }
    // Paid, declined, failed or no longer open: the server's page says which.
    if (!problem || [402, 404, 409, 502].includes(problem.status)) {
      await queueRefresh(true);
      return;
    }
    if (problem.code === 'invalid_card') card?.showServerErrorAt(problem.paths, t('page.checkCard'));
    say('pay-error', t(problem.status === 429 ? 'page.tooMany' : 'page.notThrough'));
  } finally {
    paying = false;
    setBusy(false);
    say('status', t('page.waiting'));
    followUpdates();
  }
}

/**
 * Paid: draws the approved view from the payment's answer in place of the form (the server's outcome renderer, the
 * page's language and texts), as the page fetched again would show it. False for any other outcome (the page is
 * fetched again); a live update that drew it first is kept.
 */
function showApproved(state: PaymentLinkState): boolean {
  if (viewOf(state, new Date()) !== 'approved') return false;
  const main = page();
  if (main.dataset['view'] === 'approved') return true;
  const table = main.querySelector('table');
  // The amount as the server wrote it in this page, when the payment's is the same (it is, unless the merchant changed it).
  const written = main.dataset['amount'] === `${state.amountCents} ${state.currency}` ? main.dataset['amountLabel'] : undefined;
  main.innerHTML = outcomeHtml(state, 'approved', t, document.documentElement.lang as Language, written);
  if (table) main.append(table);
  main.dataset['view'] = 'approved';
  for (const key of ['secondsLeft', 'texts', 'amount', 'amountLabel']) delete main.dataset[key];
  document.title = outcomeTitle(state, 'approved', t);
  bind();
  main.querySelector<HTMLElement>('h1[tabindex]')?.focus();
  return true;
}

/** Fetches the page again and swaps <main> when the transaction moved on (or the view changed, e.g. time ran out). */
function queueRefresh(force = false): Promise<void> {
  refreshing = refreshing.then(() => refresh(force)).catch(() => undefined);
  return refreshing;
}

async function refresh(force: boolean): Promise<void> {
  const response = await fetch(location.pathname, { cache: 'no-store', credentials: 'omit', headers: { accept: 'text/html' } });
  const next = new DOMParser().parseFromString(await response.text(), 'text/html');
  const fresh = next.getElementById('page');
  if (!fresh) return;
  const current = page();
  // A later update of a view the consumer can no longer act on changes nothing here (and the approved view drawn from
  // the payment's answer is not drawn twice).
  const changed =
    fresh.dataset['view'] !== current.dataset['view'] || (LIVE_VIEWS.has(current.dataset['view'] ?? '') && Number(fresh.dataset['sequence'] ?? 0) > rendered);
  if (!changed && !force) return;
  const viewChanged = fresh.dataset['view'] !== current.dataset['view'] || force;
  current.replaceWith(document.adoptNode(fresh));
  document.title = next.title;
  bind();
  // The new state is announced by moving focus to its heading.
  if (viewChanged) page().querySelector<HTMLElement>('h1[tabindex]')?.focus();
}

function startCountdown(secondsLeft: string | undefined): void {
  clearInterval(countdown);
  const value = document.getElementById('countdown-value');
  if (secondsLeft === undefined || !value) return;
  const end = performance.now() + Number(secondsLeft) * 1000;
  const tick = () => {
    const left = Math.max(0, Math.ceil((end - performance.now()) / 1000));
    value.textContent = formatDuration(left);
    if (left === 0) {
      clearInterval(countdown);
      void queueRefresh();
    }
  };
  countdown = setInterval(tick, 1000);
}

bind();
