import { css } from 'lit';

export const sandboxSheetStyles = css`
  .sheet {
    box-sizing: border-box;
    width: min(28rem, calc(100vw - 2rem));
    padding: 20px;
    border: 1px solid #888;
    border-radius: var(--svc-radius, 6px);
    color: #1a1a1a;
    background: #fff;
  }
  .sheet::backdrop {
    background: #0007;
  }
  .sheet h2 {
    margin: 0;
  }
  /* Two columns that may shrink below their fields' natural width; one on a phone. */
  fieldset {
    display: grid;
    grid-template-columns: repeat(2, minmax(0, 1fr));
    gap: 8px;
    margin: 0 0 12px;
    min-inline-size: 0;
    border: 1px solid #888;
  }
  @media (max-width: 480px) {
    fieldset {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  label {
    display: grid;
    font-size: 0.875em;
  }
  input {
    min-inline-size: 0;
    font: inherit;
    padding: 6px;
  }
  .sheet-same {
    display: flex;
    gap: 8px;
    margin-bottom: 12px;
  }
  .sheet-actions {
    display: flex;
    justify-content: end;
    gap: 8px;
  }
  .sheet-actions button {
    min-height: 44px;
    min-width: 6rem;
    font: inherit;
    border-radius: var(--svc-radius, 6px);
    border: 1px solid #1456d8;
    background: #fff;
    color: #1456d8;
  }
  .sheet-actions .sheet-pay {
    background: #1456d8;
    color: #fff;
  }
`;
