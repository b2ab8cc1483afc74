import { CARD_FORM_SELECTORS } from '@svc/sdk-core/frame';
import type { AppearanceSelector } from '@svc/sdk-core/shared';

/**
 * The widget page's own look, on top of sdk-core's card form styles. Constructed style sheets, so the page's CSP
 * forbids inline styles. `html{overflow:hidden}`: the loader makes the iframe exactly as tall as the page reports, so
 * a scroll bar never shows (and never narrows the page, which would change its height again). Colours, fonts, sizes
 * and radii are the appearance's custom properties (shared/appearance.ts); the method choice is tabs that stay radio
 * buttons, each as wide as its name on one line (the row shared out among them; they wrap).
 */
const UNIT = 'var(--svc-spacing-unit)';
const CSS = `
html{overflow:hidden}
body{font-family:var(--svc-font-family);font-size:var(--svc-font-size);color:var(--svc-color-text)}
main{display:grid;gap:calc(${UNIT} * 6);padding:2px;background:var(--svc-color-background);border-radius:var(--svc-radius)}
[hidden]{display:none!important}
.methods{border:0;margin:0;padding:0;min-inline-size:0;display:flex;flex-wrap:wrap;gap:calc(${UNIT} * 4)}
.methods legend{font-size:.875em;font-weight:500;padding:0;margin-block-end:calc(${UNIT} * 3)}
.method{flex:1 0 auto;display:flex;align-items:center;gap:calc(${UNIT} * 3);min-inline-size:0;padding:calc(${UNIT} * 4) calc(${UNIT} * 6);border:1px solid var(--svc-color-border);border-radius:var(--svc-radius);background:var(--svc-color-tab);white-space:nowrap;cursor:pointer;font-size:.9375em}
.method:has(input:checked){border-color:var(--svc-color-accent);box-shadow:inset 0 0 0 1px var(--svc-color-accent)}
.method input{margin:0;flex:none;accent-color:var(--svc-color-accent)}
.method input:focus-visible{outline:2px solid var(--svc-color-accent);outline-offset:2px}
.wallet-note,.status,.alert,.success{margin:0;font-size:.875em}
.status{color:var(--svc-color-muted)}
.alert{color:var(--svc-color-error)}
.status:empty,.alert:empty{display:none}
.success{color:var(--svc-color-success);font-weight:500;font-size:1em}
.retry{justify-self:start;font:inherit;padding:calc(${UNIT} * 4) calc(${UNIT} * 7);border:1px solid var(--svc-color-accent);border-radius:var(--svc-radius);background:var(--svc-color-input);color:var(--svc-color-accent);cursor:pointer}
.retry:focus-visible{outline:2px solid var(--svc-color-accent);outline-offset:2px}
.spinner{width:20px;height:20px;border:3px solid var(--svc-color-border);border-top-color:var(--svc-color-accent);border-radius:50%;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation:none}}
body.authenticating{min-height:38rem}
`;

/** Where the appearance's selectors land in the widget page, on top of the card form's. */
export const WIDGET_SELECTORS: Partial<Record<AppearanceSelector, string>> = {
  ...CARD_FORM_SELECTORS,
  '.Tab': '.method',
  '.Tab--selected': '.method:has(input:checked)',
  '.Button': '.retry',
  '.Error': '.field .error, .alert',
};

/** The widget's own sheet; add it before the card form's, whose appearance sheet comes last. */
export function applyWidgetStyles(doc: Document): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
}
