import { css } from 'lit';

export const sandboxSheetStyles = css`
  .sheet {
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
  fieldset {
    display: grid;
    grid-template-columns: 1fr 1fr;
    gap: 8px;
    margin: 0 0 12px;
    border: 1px solid #888;
  }
  label {
    display: grid;
    font-size: 0.875em;
  }
  input {
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
