/**
 * The sandbox terminal simulator's script (`/pay-assets/terminal.js`). The device ID comes from the form or the URL
 * fragment (never a path or query). It is checked first (`GET /sandbox/terminal/current`): an unknown or revoked one
 * is said so and nothing is connected. Then the device's websocket scope (`?deviceId=`, scope `device`) brings every
 * new transaction and update, and the buttons tap test cards and wallets through `POST /sandbox/terminal/tap`.
 */
import type { PaymentLinkState } from '@svc/protocol';
import {
  parseWith,
  fillPath,
  PaymentLinkStateWire,
  readProblem,
  terminalCancelPath,
  terminalCurrentPath,
  terminalTapPath,
  TerminalCurrentWire,
} from '@svc/protocol/light';
import { LiveUpdates } from '@svc/sdk-core/shared';
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

let deviceId = '';
/** The transaction on the screen: the device's newest one still waiting for a payment. */
let shown: PaymentLinkState | null = null;
let busy = false;
/** The device's transactions over the websocket (scope `device`); a revoked device ID (close code 4001) ends it. */
const live = new LiveUpdates({
  query: () => ({ deviceId }),
  subscribe: () => ({ type: 'subscribe', scope: 'device' }),
  onNotice: () => void load(),
  reconnect: (event) => {
    if (event.code !== 4001) return true;
    say('This device ID was revoked; the simulator is disconnected.');
    return false;
  },
  onReconnect: () => void load(),
});

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
    heading.textContent = 'No payment is waiting';
    amount.hidden = true;
    detail.textContent = 'A transaction created for this device appears here at once.';
    taps.hidden = true;
    return;
  }
  heading.textContent = `Payment to ${shown.businessName}`;
  amount.hidden = shown.amountCents === null;
  amount.textContent = shown.amountCents === null ? '' : `${(shown.amountCents / 100).toFixed(2)} ${shown.currency}`;
  detail.textContent = `Transaction ${shown.TransactionNumber}: ${shown.statusName}`;
  taps.hidden = !shown.payable;
}

/** Reads what the device's screen shows now; false when the device ID is not (or no longer) accepted. */
async function load(): Promise<boolean> {
  const response = await call('GET', fillPath(terminalCurrentPath));
  if (response.status === 401 || response.status === 403) return false;
  const parsed = parseWith(TerminalCurrentWire, response.ok ? await response.json() : null);
  if (!parsed.ok) {
    say('The service answered something unexpected; reload the page.');
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
  result.textContent = 'Processing…';
  try {
    const response = await call('POST', path, { transactionNumber: shown.TransactionNumber, ...body });
    if (response.ok) {
      const after = parseWith(PaymentLinkStateWire, await response.json());
      result.textContent = after.ok
        ? `${after.value.statusName}${after.value.lastFourDigits ? ` (card ending in ${after.value.lastFourDigits})` : ''}`
        : 'Done.';
    } else {
      const problem = await readProblem(response);
      result.textContent = `Refused: ${problem.code ?? response.status}${problem.detail ? `. ${problem.detail}` : ''}`;
    }
    await load();
  } catch {
    result.textContent = 'The service could not be reached.';
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
    say('That is not a device ID: device IDs start with dev_.');
    return;
  }
  say('Connecting…');
  if (!(await load())) {
    byId('terminal').hidden = true;
    say('This device ID is unknown or revoked; nothing is connected.');
    return;
  }
  say('Connected. Transactions created for this device appear here as they are made.');
  live.open();
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
