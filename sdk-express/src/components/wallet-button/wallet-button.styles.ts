import { css } from 'lit';

/** The buttons' default look; `cssUrl` (loaded after these) and `::part(<method>)` override it. */
export const walletButtonStyles = css`
  .payment-btn {
    display: flex;
    align-items: center;
    justify-content: center;
    gap: 8px;
    width: 100%;
    min-height: 48px;
    border: 0;
    border-radius: var(--svc-radius, 6px);
    font: inherit;
    font-weight: 600;
    cursor: pointer;
    background: #111;
    color: #fff;
  }
  [part='paypal'] {
    background: #ffc439;
    color: #111;
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
    width: 1.5em;
    line-height: 1.5em;
    border-radius: 50%;
    border: 2px solid;
  }
`;
