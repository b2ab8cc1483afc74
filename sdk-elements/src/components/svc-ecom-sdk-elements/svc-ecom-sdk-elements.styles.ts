import { css } from 'lit';

export const styles = css`
  :host {
    --svc-font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    --svc-font-size: 16px;
    --svc-color-text: #1a1a1a;
    --svc-color-muted: #4a4a4a;
    --svc-color-background: transparent;
    --svc-color-border: #8a8a8a;
    --svc-color-accent: #1456d8;
    --svc-color-error: #b3261e;
    --svc-color-success: #1b6e35;
    --svc-radius: 6px;
    --svc-spacing-unit: 2px;
    --svc-spacing: calc(var(--svc-spacing-unit) * 6);
    --svc-color-tab: transparent;

    display: block;
    font-family: var(--svc-font-family);
    font-size: var(--svc-font-size);
    color: var(--svc-color-text);
  }

  :host([hidden]) {
    display: none;
  }

  [hidden] {
    display: none !important;
  }

  .base {
    display: grid;
    gap: var(--svc-spacing);
    background: var(--svc-color-background);
    border-radius: var(--svc-radius);
  }

  /* Tabs that stay radio buttons: each tab as wide as its name on one line, the row shared out among them; they wrap. */
  .methods {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--svc-spacing) / 2);
    margin: 0;
    padding: 0;
    border: 0;
    min-inline-size: 0;
  }

  .methods legend {
    padding: 0;
    margin-block-end: calc(var(--svc-spacing) / 2);
    font-weight: 600;
  }

  .method {
    flex: 1 0 auto;
    display: flex;
    align-items: center;
    gap: calc(var(--svc-spacing) / 2);
    min-inline-size: 0;
    padding: calc(var(--svc-spacing) * 0.75) var(--svc-spacing);
    border: 1px solid var(--svc-color-border);
    border-radius: var(--svc-radius);
    background: var(--svc-color-tab);
    white-space: nowrap;
    cursor: pointer;
  }

  .method:has(input:checked) {
    border-color: var(--svc-color-accent);
    box-shadow: inset 0 0 0 1px var(--svc-color-accent);
  }

  .method:has(input:focus-visible) {
    outline: 2px solid var(--svc-color-accent);
    outline-offset: 2px;
  }

  .method input {
    accent-color: var(--svc-color-accent);
    margin: 0;
    flex: none;
  }

  iframe {
    display: block;
    width: 100%;
    height: 190px;
    border: 0;
    color-scheme: normal;
  }

  .wallet-note,
  .success,
  .status:empty,
  .error:empty {
    margin: 0;
  }

  .status {
    color: var(--svc-color-muted);
  }

  .status:empty,
  .error:empty {
    display: none;
  }

  .error {
    color: var(--svc-color-error);
  }

  .success {
    color: var(--svc-color-success);
    font-weight: 600;
  }

  .spinner {
    width: 20px;
    height: 20px;
    border: 3px solid var(--svc-color-border);
    border-top-color: var(--svc-color-accent);
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }

  .retry {
    justify-self: start;
    font: inherit;
    padding: 8px 14px;
    border: 1px solid var(--svc-color-accent);
    border-radius: var(--svc-radius);
    background: transparent;
    color: var(--svc-color-accent);
    cursor: pointer;
  }

  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }

  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
    }
  }
`;
