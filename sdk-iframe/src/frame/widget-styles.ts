/**
 * The widget page's own look, on top of sdk-core's card form styles. Constructed style sheets, so the page's CSP
 * forbids inline styles. `html{overflow:hidden}`: the loader makes the iframe exactly as tall as the page reports, so
 * a scroll bar never shows (and never narrows the page, which would change its height again).
 */
const CSS = `
html{overflow:hidden}
main{display:grid;gap:12px;padding:2px}
[hidden]{display:none!important}
.methods{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:8px}
.methods legend{font-size:14px;font-weight:500;padding:0;margin-bottom:6px}
.method{display:inline-flex;align-items:center;gap:6px;padding:8px 12px;border:1px solid #8a8a8a;border-radius:6px;cursor:pointer;font-size:15px}
.method:has(input:checked){border-color:#1456d8;box-shadow:inset 0 0 0 1px #1456d8}
.method input{margin:0}
.method input:focus-visible{outline:2px solid #1456d8;outline-offset:2px}
.wallet-note,.status,.alert,.success{margin:0;font-size:14px}
.status{color:#4a4a4a}
.alert{color:#b3261e}
.status:empty,.alert:empty{display:none}
.success{color:#1b6e35;font-weight:500;font-size:16px}
.retry{justify-self:start;font:inherit;padding:8px 14px;border:1px solid #1456d8;border-radius:6px;background:#fff;color:#1456d8;cursor:pointer}
.retry:focus-visible{outline:2px solid #1456d8;outline-offset:2px}
.spinner{width:20px;height:20px;border:3px solid #d0d0d0;border-top-color:#1456d8;border-radius:50%;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation:none}}
`;

export function applyWidgetStyles(doc: Document): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
}
