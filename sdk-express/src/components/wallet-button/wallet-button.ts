/**
 * One wallet button: `<button class="payment-btn" part="<method>">` with `.payment-logo` and `.payment-label`, named
 * `Pay with <wallet>` (docs/integrating.md#accessible-names: "Pay with " is in the label, visually hidden, so the name is the label's text). It is a template, not an element of its own, so its classes and part sit in the
 * Express element's shadow root, where `cssUrl` and `::part()` reach them. State attributes: `data-can-pay`,
 * `data-processing` (the pressed button, with `aria-busy`) and `data-other-processing` (the others, disabled). A button
 * that cannot pay is hidden, which also takes it out of the tab order.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { WalletMethod } from '@svc/protocol';
import { WALLET_NAMES } from '../../wallets/wallets';

export interface WalletButtonState {
  method: WalletMethod;
  canPay: boolean;
  /** Which wallet is being paid with, if any. */
  processing: WalletMethod | null;
  onClick: (method: WalletMethod) => void;
}

/** A monogram per wallet (currentColor); a merchant's cssUrl may hide it and show brand artwork on `.payment-logo`. */
const MONOGRAMS: Record<WalletMethod, string> = { paypal: 'P', applepay: 'A', googlepay: 'G' };

export function walletButton(state: WalletButtonState): TemplateResult {
  const { method, canPay, processing } = state;
  const pressed = processing === method;
  const other = processing !== null && !pressed;
  return html`<button
    type="button"
    class="payment-btn"
    part=${method}
    data-can-pay=${String(canPay)}
    ?data-processing=${pressed}
    ?data-other-processing=${other}
    aria-busy=${pressed ? 'true' : nothing}
    ?hidden=${!canPay}
    ?disabled=${!canPay || other}
    @click=${() => state.onClick(method)}
  >
    <span class="payment-logo" aria-hidden="true">${MONOGRAMS[method]}</span>
    <span class="payment-label"><span class="visually-hidden">Pay with </span>${WALLET_NAMES[method]}</span>
  </button>`;
}
