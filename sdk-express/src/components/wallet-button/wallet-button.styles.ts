import { css } from 'lit';

/** The buttons' default look; `cssUrl` (loaded after these) and `::part(<method>)` override it. */
export const walletButtonStyles = css`
  .payment-btn {
    display: flex;
    align-items: center;
    justify-content: center;
    gap: 8px;
    width: 100%;
    box-sizing: border-box;
    min-height: var(--svc-button-height, 48px);
    padding-block: 0;
    padding-inline: 16px;
    border: 1px solid transparent;
    border-radius: var(--svc-button-radius, var(--svc-radius, 6px));
    font: inherit;
    font-weight: 600;
    white-space: nowrap;
    cursor: pointer;
    background: #000;
    color: #fff;
  }
  /* The colours of each wallet's own button guidelines. */
  [data-theme='gold'] {
    background: #ffc439;
    color: #003087;
  }
  [data-theme='blue'] {
    background: #0070ba;
    color: #fff;
  }
  [data-theme='white'] {
    background: #fff;
    color: #000;
    border-color: #000;
  }
  [part='paypal'][data-theme='white'] {
    color: #003087;
  }
  .payment-btn[hidden] {
    display: none;
  }
  :focus-visible {
    outline: 3px solid var(--svc-color-focus, #1456d8);
    outline-offset: 2px;
  }
  .payment-btn:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  [data-processing] {
    cursor: progress;
  }
  .payment-logo {
    flex: none;
    height: 1.4em;
    width: auto;
    max-width: 5em;
  }
`;
