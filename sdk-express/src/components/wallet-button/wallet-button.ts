/**
 * One wallet button: `<button class="payment-btn" part="<method>">` with `.payment-logo` and `.payment-label`, named
 * `Pay with <wallet>` in the element's language (docs/integrating.md#accessible-names: the words around the wallet's name are in
 * the label, visually hidden, so the name is the label's text). It is a template, not an element of its own, so its classes and part sit in the
 * Express element's shadow root, where `cssUrl` and `::part()` reach them. State attributes: `data-can-pay`,
 * `data-processing` (the pressed button, with `aria-busy`) and `data-other-processing` (the others, disabled). A button
 * that cannot pay is hidden, which also takes it out of the tab order.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { WalletMethod } from '@svc/protocol';
import { WALLET_MARKS } from '@svc/sdk-core/shared';
import { WALLET_NAMES } from '../../wallets/wallets';

export interface WalletButtonState {
  method: WalletMethod;
  canPay: boolean;
  /** Which wallet is being paid with, if any. */
  processing: WalletMethod | null;
  /** The button's theme (`props.appearance.buttonTheme`): `data-theme`, which the styles colour as the wallet's guidelines do. */
  theme: string;
  /** The button's name in the element's language, `{wallet}` where the wallet's name goes (`Pay with {wallet}`). */
  payWith: string;
  onClick: (method: WalletMethod) => void;
}

/**
 * The wallet's own mark (Simple Icons, sdk-core's marks), filled with the button's text colour. Apple Pay's is its
 * wordmark, so its name is left to assistive technology; PayPal's and Google's marks stand beside their names.
 */
const mark = (method: WalletMethod): TemplateResult =>
  html`<svg class="payment-logo" viewBox=${VIEW_BOXES[method]} aria-hidden="true" focusable="false"><path d=${WALLET_MARKS[method].path} fill="currentColor"></path></svg>`;

/** Each mark's own box in Simple Icons' 24 × 24 square (the wordmarks are wide and short). */
const VIEW_BOXES: Record<WalletMethod, string> = { paypal: '0 0 24 24', applepay: '0 7.1 24 9.8', googlepay: '0 0 24 24' };

export function walletButton(state: WalletButtonState): TemplateResult {
  const { method, canPay, processing } = state;
  const pressed = processing === method;
  const other = processing !== null && !pressed;
  const [before = '', after = ''] = state.payWith.split('{wallet}');
  const hidden = (text: string) => (text ? html`<span class="visually-hidden">${text}</span>` : nothing);
  return html`<button
    type="button"
    class="payment-btn"
    part=${method}
    data-can-pay=${String(canPay)}
    data-theme=${state.theme}
    ?data-processing=${pressed}
    ?data-other-processing=${other}
    aria-busy=${pressed ? 'true' : nothing}
    ?hidden=${!canPay}
    ?disabled=${!canPay || other}
    @click=${() => state.onClick(method)}
  >
    ${mark(method)}
    <span class="payment-label${method === 'applepay' ? ' visually-hidden' : ''}">${hidden(before)}${WALLET_NAMES[method]}${hidden(after)}</span>
  </button>`;
}
