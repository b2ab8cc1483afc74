import { css } from 'lit';
import { walletButtonStyles } from '../wallet-button/wallet-button.styles';
import { sandboxSheetStyles } from '../../wallets/sandbox-sheet.styles';

export const expressCheckoutStyles = [
  css`
    :host {
      display: block;
      font-family: var(--svc-font-family, system-ui, sans-serif);
      font-size: var(--svc-font-size, 16px);
      color: var(--svc-color-text, #1a1a1a);
    }
    :host([hidden]) {
      display: none;
    }
    .buttons {
      display: grid;
      gap: var(--svc-spacing, 12px);
    }
    .visually-hidden {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
  `,
  walletButtonStyles,
  sandboxSheetStyles,
];
