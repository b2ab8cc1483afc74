/**
 * The sandbox terminal simulator's script (`/pay-assets/terminal.js`). The device ID comes from the form or the URL
 * fragment (never a path or query). It is checked first (`GET /sandbox/terminal/current`): an unknown or revoked one
 * is said so and nothing is connected. Then the device's websocket scope (`?deviceId=`, scope `device`) brings every
 * new transaction and update, and the buttons tap test cards and wallets through `POST /sandbox/terminal/tap`. What it
 * writes is in the page's language: the server hands it the texts (`data-texts`) and amounts go through Intl.
 */
import type { PaymentLinkState, TransactionStatusName } from '@svc/protocol';
import {
  parseWith,
  fillPath,
  PaymentLinkStateWire,
  readProblem,
  terminalCancelPath,
  terminalCurrentPath,
  terminalTapPath,
  TerminalCurrentWire,
  TransactionUpdatedNoticeWire,
  WS_CLOSE_CODES,
} from '@svc/protocol/light';
import { fill, formatAmount, supportedLanguage, type TextKey, type TextParams } from '@svc/sdk-core/i18n';
import { LiveUpdates } from '@svc/sdk-core/shared';
import { REFUSAL_TEXTS, STATUS_TEXTS } from './terminal-texts';
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const main = byId('page');
const language = supportedLanguage(main.dataset['language'] ?? '') ?? 'en';
const texts = JSON.parse(main.dataset['texts'] ?? '{}') as Partial<Record<TextKey, string>>;
const t = (key: TextKey, params?: TextParams): string => fill(texts[key] ?? key, params);

let deviceId = '';
/** The transaction on the screen: the device's newest one still waiting for a payment. */
let shown: PaymentLinkState | null = null;
let busy = false;
/** The device's transactions over the websocket (scope `device`); a revoked device ID (close code 4001) ends it. */
const live = new LiveUpdates({
  query: () => ({ deviceId }),
  subscribe: () => ({ type: 'subscribe', scope: 'device' }),
  notice: TransactionUpdatedNoticeWire,
  onNotice: () => void load(),
  reconnect: (event) => {
    if (event.code !== WS_CLOSE_CODES.CREDENTIAL_REVOKED) return true;
    say(t('terminal.revoked'));
    return false;
  },
  onReconnect: () => void load(),
});

/** A status in the page's language (a status the simulator never shows says only that it is done). */
function statusText(name: TransactionStatusName): string {
  return name in STATUS_TEXTS ? t(STATUS_TEXTS[name as keyof typeof STATUS_TEXTS]) : t('terminal.done');
}

function say(text: string): void {
  byId('terminal-status').textContent = text;
}

function keyFor(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `tap-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${deviceId}` };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['idempotency-key'] = keyFor();
  }
  return fetch(path, { method, headers, body: body === undefined ? null : JSON.stringify(body), cache: 'no-store', credentials: 'omit' });
}

function render(): void {
  byId('terminal').hidden = false;
  const heading = byId('terminal-heading');
  const amount = byId('terminal-amount');
  const detail = byId('terminal-detail');
  const taps = byId('terminal-taps');
  if (!shown) {
    heading.textContent = t('terminal.none');
    amount.hidden = true;
    detail.textContent = t('terminal.none.text');
    taps.hidden = true;
    return;
  }
  heading.textContent = t('terminal.paymentTo', { business: shown.businessName });
  amount.hidden = shown.amountCents === null;
  amount.textContent = shown.amountCents === null ? '' : formatAmount(shown.amountCents, shown.currency, language);
  detail.textContent = t('terminal.transaction', { number: shown.TransactionNumber, status: statusText(shown.statusName) });
  taps.hidden = !shown.payable;
}

/** Reads what the device's screen shows now; false when the device ID is not (or no longer) accepted. */
async function load(): Promise<boolean> {
  const response = await call('GET', fillPath(terminalCurrentPath));
  if (response.status === 401 || response.status === 403) return false;
  const parsed = parseWith(TerminalCurrentWire, response.ok ? await response.json() : null);
  if (!parsed.ok) {
    say(t('terminal.unexpected'));
    return true;
  }
  // Pending, or declined (the consumer may tap another card); none once it is paid, cancelled or timed out.
  shown = parsed.value.transaction;
  render();
  return true;
}

async function act(body: Record<string, string>, path: string): Promise<void> {
  if (busy || !shown) return;
  busy = true;
  const result = byId('terminal-result');
  result.textContent = t('terminal.processing');
  delete result.dataset['code'];
  try {
    const response = await call('POST', path, { transactionNumber: shown.TransactionNumber, ...body });
    if (response.ok) {
      const after = parseWith(PaymentLinkStateWire, await response.json());
      const digits = after.ok ? after.value.lastFourDigits : null;
      result.textContent = !after.ok
        ? t('terminal.done')
        : digits
          ? t('terminal.result.card', { status: statusText(after.value.statusName), digits })
          : statusText(after.value.statusName);
    } else {
      // The shopper's text for the refusal; its stable code stays on the element for a developer (`data-code`).
      const problem = await readProblem(response);
      const reason = problem.code && problem.code in REFUSAL_TEXTS ? REFUSAL_TEXTS[problem.code as keyof typeof REFUSAL_TEXTS] : 'error.unexpected';
      result.textContent = t('terminal.refused', { reason: t(reason) });
      result.dataset['code'] = problem.code ?? String(response.status);
    }
    await load();
  } catch {
    result.textContent = t('terminal.unreachable');
  } finally {
    busy = false;
  }
}

async function connect(id: string): Promise<void> {
  live.close();
  shown = null;
  byId('terminal').hidden = true;
  deviceId = id.trim();
  if (!/^dev_\S+$/.test(deviceId)) {
    say(t('terminal.notDevice'));
    return;
  }
  say(t('terminal.connecting'));
  if (!(await load())) {
    byId('terminal').hidden = true;
    say(t('terminal.unknown'));
    return;
  }
  say(t('terminal.connected'));
  keepDeviceOnLanguageSwitch();
  live.open();
}

/** The language switch's links keep the device ID in the fragment, so switching stays connected to the same device. */
function keepDeviceOnLanguageSwitch(): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('nav.languages a')) link.hash = encodeURIComponent(deviceId);
}

byId('device-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void connect(byId<HTMLInputElement>('device-id').value);
});
byId('terminal-taps').addEventListener('click', (event) => {
  const button = (event.target as HTMLElement).closest('button');
  if (!button) return;
  if (button.dataset['card']) void act({ method: 'card', cardNumber: button.dataset['card'] }, fillPath(terminalTapPath));
  else if (button.dataset['wallet']) void act({ method: button.dataset['wallet'] }, fillPath(terminalTapPath));
  else if ('cancel' in button.dataset) void act({}, fillPath(terminalCancelPath));
});

const fromFragment = decodeURIComponent(location.hash.slice(1));
if (fromFragment) {
  byId<HTMLInputElement>('device-id').value = fromFragment;
  void connect(fromFragment);
}
