import { SANDBOX_TEST_CARDS } from '@svc/protocol';
import { escapeHtml, PAGE_ASSETS, renderPage } from '../consumer-pages';

/** `4242424242424242` → `4242 4242 4242 4242`, as the buttons name the cards (docs/integrating.md#accessible-names). */
export const spacedCardNumber = (digits: string): string => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

const WALLET_BUTTONS = [
  ['paypal', 'PayPal'],
  ['applepay', 'Apple Pay'],
  ['googlepay', 'Google Pay'],
] as const;

/**
 * The sandbox terminal simulator, `GET /sandbox/terminal`: the device ID is typed in or read from the URL fragment
 * (`#dev_…`, never a path or query, so it stays out of server logs); its script shows the device's pending
 * transaction live and taps a test card or a wallet on it.
 */
export function renderTerminalPage(): string {
  const taps = [
    ...SANDBOX_TEST_CARDS.map((card) => `<button type="button" data-card="${card.number}">Tap ${spacedCardNumber(card.number)}</button>`),
    ...WALLET_BUTTONS.map(([method, label]) => `<button type="button" data-wallet="${method}">Tap ${escapeHtml(label)}</button>`),
    '<button type="button" class="secondary" data-cancel>Cancel as the consumer</button>',
  ];
  return renderPage({
    title: 'Terminal simulator (sandbox)',
    script: PAGE_ASSETS.terminalScript,
    main: [
      '<h1>Terminal simulator</h1>',
      '<p class="muted">Sandbox only. Plays a payment terminal: it shows the device\'s pending transaction and taps test cards and wallets on it.</p>',
      '<form id="device-form" novalidate>',
      '<div class="field"><label for="device-id">Device ID</label>',
      '<input id="device-id" name="device-id" type="text" autocomplete="off" spellcheck="false" placeholder="dev_…"></div>',
      '<button type="submit">Connect</button>',
      '</form>',
      '<p id="terminal-status" class="status" role="status">Type the device ID, or open this page as /sandbox/terminal#dev_… .</p>',
      '<section id="terminal" aria-labelledby="terminal-heading" hidden>',
      '<h2 id="terminal-heading">No payment is waiting</h2>',
      '<p id="terminal-amount" class="amount" hidden></p>',
      '<p id="terminal-detail" class="muted"></p>',
      `<div id="terminal-taps" class="taps" hidden>\n${taps.join('\n')}\n</div>`,
      '<p id="terminal-result" role="status"></p>',
      '</section>',
    ].join('\n'),
  });
}
