import { SANDBOX_TEST_CARDS } from '@svc/protocol';
import type { Language, TextKey } from '@svc/sdk-core/i18n';
import { escapeHtml, PAGE_ASSETS, renderPage } from '../consumer-pages';
import { translator } from '../../i18n';
import { SCRIPT_TEXTS } from './assets/terminal-texts';

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
 * transaction live and taps a test card or a wallet on it. In `language` (`<html lang dir>`, a switch like every
 * consumer page's); the `en` button names (`Tap 4242 4242 4242 4242`, `Tap PayPal`) are the ones QA relies on.
 */
export function renderTerminalPage(language: Language = 'en'): string {
  const t = translator(language);
  const tap = (name: string) => escapeHtml(t('terminal.tap', { name }));
  const taps = [
    ...SANDBOX_TEST_CARDS.map((card) => `<button type="button" data-card="${card.number}">${tap(spacedCardNumber(card.number))}</button>`),
    ...WALLET_BUTTONS.map(([method, label]) => `<button type="button" data-wallet="${method}">${tap(label)}</button>`),
    `<button type="button" class="secondary" data-cancel>${escapeHtml(t('terminal.cancel'))}</button>`,
  ];
  const text = (key: TextKey) => escapeHtml(t(key));
  return renderPage({
    title: t('terminal.title'),
    language,
    script: PAGE_ASSETS.terminalScript,
    mainData: { language, texts: JSON.stringify(Object.fromEntries(SCRIPT_TEXTS.map((key) => [key, t(key)]))) },
    main: [
      `<h1>${text('terminal.heading')}</h1>`,
      `<p class="muted">${text('terminal.intro')}</p>`,
      '<form id="device-form" novalidate>',
      `<div class="field"><label for="device-id">${text('terminal.deviceId')}</label>`,
      '<input id="device-id" name="device-id" type="text" dir="ltr" autocomplete="off" spellcheck="false" placeholder="dev_…"></div>',
      `<button type="submit">${text('terminal.connect')}</button>`,
      '</form>',
      `<p id="terminal-status" class="status" role="status">${text('terminal.hint')}</p>`,
      '<section id="terminal" aria-labelledby="terminal-heading" hidden>',
      `<h2 id="terminal-heading">${text('terminal.none')}</h2>`,
      '<p id="terminal-amount" class="amount" hidden></p>',
      '<p id="terminal-detail" class="muted"></p>',
      `<div id="terminal-taps" class="taps" hidden>\n${taps.join('\n')}\n</div>`,
      '<p id="terminal-result" role="status"></p>',
      '</section>',
    ].join('\n'),
  });
}
