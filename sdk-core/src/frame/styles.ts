/**
 * The card frame's look. Applied as a constructed style sheet, so the frame's Content-Security-Policy can forbid inline
 * styles. The frame is on the service's origin: the merchant page's CSS custom properties do not reach it.
 */
const CSS = `
:root{color-scheme:light;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a}
html,body{margin:0;padding:0;background:transparent}
form{display:grid;gap:12px;padding:2px}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.field{display:grid;gap:4px;min-width:0}
label{font-size:14px;font-weight:500}
.control{position:relative}
input{box-sizing:border-box;width:100%;font:inherit;padding:10px 12px;border:1px solid #8a8a8a;border-radius:6px;background:#fff;color:inherit}
#number{padding-inline-end:9em}
input:focus{outline:2px solid #1456d8;outline-offset:1px;border-color:#1456d8}
input[aria-invalid=true]{border-color:#b3261e}
input[readonly]{background:#f3f3f3}
.brand{position:absolute;inset-inline-end:12px;top:50%;transform:translateY(-50%);font-size:13px;color:#4a4a4a;pointer-events:none}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.error{margin:0;min-height:1.2em;font-size:13px;color:#b3261e}
@media (max-width:260px){.row{grid-template-columns:1fr}}
`;

export function applyCardFormStyles(doc: Document): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
}
