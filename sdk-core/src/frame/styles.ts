/**
 * The card form's look. Applied as constructed style sheets, so the frame's Content-Security-Policy can forbid inline
 * styles. The frame is on the service's origin: the merchant page's CSS custom properties do not reach it; its
 * appearance (`config({ appearance })`) does, as a message the frame checks itself (shared/appearance.ts) before any of
 * it is applied. Every colour, font, size and radius is a custom property the appearance sets on the root.
 *
 * Layout: the expiry and security code fields share their rows (a subgrid), so a longer label or error on one never
 * moves the other; each field's error line is always there (empty when there is no error), so an error appearing
 * moves nothing.
 */
import { appearanceCss, type AppearanceSelector, type CheckedAppearance } from '../shared/appearance-css';
import { applyReadable, FOCUS_PROBE } from './readable-look';

const UNIT = 'var(--svc-spacing-unit)';
const CSS = `
:root{color-scheme:var(--svc-color-scheme)}
html{background:var(--svc-color-background)}
html,body{margin:0;padding:0}
body{font-family:var(--svc-font-family);font-size:var(--svc-font-size);line-height:1.4;color:var(--svc-color-text)}
#card-form{display:grid;row-gap:${UNIT};padding:2px}
.row{display:grid;grid-template-columns:1fr 1fr;grid-template-rows:auto auto auto;column-gap:calc(${UNIT} * 6)}
.field{display:grid;grid-template-rows:auto auto auto;row-gap:calc(${UNIT} * 2);min-width:0;align-content:start}
.row>.field{grid-row:span 3;grid-template-rows:subgrid}
.field label{font-size:.875em;font-weight:500;align-self:end}
.control{position:relative}
.field input,.field select{box-sizing:border-box;width:100%;font:inherit;padding:calc(${UNIT} * 5) calc(${UNIT} * 6);border:1px solid var(--svc-color-border);border-radius:var(--svc-radius);background:var(--svc-color-input);color:inherit}
#number{padding-inline-end:4em}
.field input:focus,.field select:focus{outline:2px solid var(--svc-color-accent);outline-offset:1px;border-color:var(--svc-color-accent)}
.field input[aria-invalid=true]{border-color:var(--svc-color-error)}
.field input[readonly]{background:var(--svc-color-readonly)}
.brand{position:absolute;inset-inline-end:calc(${UNIT} * 5);top:50%;transform:translateY(-50%);display:flex;align-items:center;font-size:13px;color:var(--svc-color-muted);pointer-events:none}
.brand svg{display:block;width:1.75em;height:1.75em}
.brand path{fill:var(--svc-color-mark,var(--brand))}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.error{margin:0;min-height:1.4em;font-size:.8125em;color:var(--svc-color-error)}
@media (max-width:260px){.row{grid-template-columns:1fr;grid-template-rows:none}.row>.field{grid-row:auto;grid-template-rows:auto auto auto}}
`;

/** Where each appearance selector lands in the card form. */
export const CARD_FORM_SELECTORS: Partial<Record<AppearanceSelector, string>> = {
  '.Input': '.field input',
  // The focus probe: readable-look.ts measures a field's focused look without taking the shopper's focus.
  '.Input:focus': `.field input:focus,.field input.${FOCUS_PROBE}`,
  '.Input--invalid': '.field input[aria-invalid=true]',
  '.Label': '.field label',
  '.Error': '.field .error',
};

/** A document takes only sheets made by its own window. */
const sheetOf = (doc: Document, text: string): CSSStyleSheet => {
  const sheet = new (doc.defaultView ?? window).CSSStyleSheet();
  sheet.replaceSync(text);
  return sheet;
};

/**
 * Adds the card form's style sheets to `doc` and returns the function that puts a checked appearance's style sheet in
 * place of the last one (nothing else may be given to it: every value in it must have passed the checker).
 */
export function addCardFormStyles(doc: Document, selectors: Partial<Record<AppearanceSelector, string>>, root: string): (checked: CheckedAppearance) => void {
  const look = sheetOf(doc, '');
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheetOf(doc, CSS), look];
  return (checked) => look.replaceSync(appearanceCss(checked, root, selectors));
}

/**
 * Adds the card form's style sheets to `doc` and returns the function that applies an appearance (anything: it is
 * checked here, and its result measured: readable-look.ts) in place of the last one, at once and without touching the
 * form, so nothing typed is lost. It returns the checked appearance: what it applied and what it refused (left out).
 * The checker is in the bundle; lazy-look.ts loads it only when an appearance is given.
 */
export function applyCardFormStyles(
  doc: Document,
  selectors: Partial<Record<AppearanceSelector, string>> = CARD_FORM_SELECTORS,
  root = ':root',
): (appearance: unknown) => CheckedAppearance {
  const render = addCardFormStyles(doc, selectors, root);
  const apply = (appearance: unknown): CheckedAppearance => applyReadable(doc, appearance, render);
  apply(undefined);
  return apply;
}
