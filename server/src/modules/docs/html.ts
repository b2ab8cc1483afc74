import { escapeHtml } from '../../html-escape';

export { escapeHtml };

/**
 * Escapes text, then renders the little Markdown the protocol's descriptions use: `code` and **strong**.
 * Safe because escaping never produces a backtick or an asterisk.
 */
export function inlineMarkdown(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

/** Paragraphs separated by blank lines, each with inline Markdown. */
export function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .map((p) => `<p>${inlineMarkdown(p)}</p>`)
    .join('\n');
}

/** A page id from free text: letters, digits, `-` and `_` only. */
export function anchorId(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, '-');
}

const STYLES = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #ffffff; --panel: #f6f8fa; --line: #d0d7de;
  --link: #0550ae; --get: #0b6e3f; --post: #8a4b00; --delete: #a40e26; --focus: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --panel: #161b22; --line: #30363d;
  --link: #79c0ff; --get: #56d364; --post: #f0b45b; --delete: #ff7b72; --focus: #58a6ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--link); }
a:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--bg); padding: .5rem 1rem; }
.skip:focus { left: 1rem; }
.layout { display: grid; grid-template-columns: minmax(16rem, 20rem) minmax(0, 1fr); gap: 2rem; max-width: 80rem; margin: 0 auto; padding: 1.5rem; }
.layout.single { grid-template-columns: minmax(0, 1fr); }
@media (max-width: 60rem) { .layout { grid-template-columns: minmax(0, 1fr); } }
nav { font-size: .92rem; }
@media (min-width: 60rem) { nav { position: sticky; top: 1rem; align-self: start; max-height: calc(100vh - 2rem); overflow-y: auto; } }
nav h2 { margin: 0 0 .5rem; padding: 0; border: 0; font-size: 1rem; }
nav ul { list-style: none; padding-left: 0; margin: .25rem 0 .75rem; }
nav ul ul { padding-left: .75rem; }
nav li { margin: .15rem 0; }
nav li li a { display: flex; gap: .4rem; align-items: baseline; overflow-wrap: anywhere; min-width: 0; }
nav .method { min-width: 3rem; flex: none; }
header { border-bottom: 1px solid var(--line); padding: 1.5rem; }
header h1 { margin: 0 0 .25rem; font-size: 1.8rem; }
header p { margin: .25rem 0; color: var(--muted); }
h2 { margin-top: 2.5rem; padding-top: .5rem; border-top: 1px solid var(--line); }
h3 { margin-top: 2rem; font-size: 1.2rem; }
h4 { margin: 1.25rem 0 .5rem; font-size: 1rem; }
code { font: .9em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--panel); padding: .05em .3em; border-radius: 4px; overflow-wrap: break-word; }
pre { background: var(--panel); padding: .75rem 1rem; border-radius: 6px; overflow-x: auto; }
pre code { background: none; padding: 0; }
td ul { margin: 0; padding-left: 1rem; }
.op { border: 1px solid var(--line); border-radius: 8px; padding: 0 1.25rem 1rem; margin: 1.5rem 0; }
.method { display: inline-block; min-width: 3.5rem; font: 700 .8rem/1.6 ui-monospace, monospace; text-align: center; border: 1px solid currentColor; border-radius: 4px; padding: 0 .35rem; }
.method-get { color: var(--get); }
.method-post { color: var(--post); }
.method-delete { color: var(--delete); }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; margin: .5rem 0 1rem; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { border: 1px solid var(--line); padding: .35rem .55rem; text-align: left; vertical-align: top; }
thead th { background: var(--panel); }
tr:target { outline: 3px solid var(--focus); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: .75rem 0; }
dt { font-weight: 600; }
dd { margin: 0; }
.muted { color: var(--muted); }
`;

/** A whole self-contained page: inline styles, no scripts, no external requests. */
export function htmlPage(options: { title: string; header: string; nav?: string; main: string }): string {
  const body = options.nav
    ? `<div class="layout">\n<nav aria-label="Contents">\n${options.nav}\n</nav>\n<main id="main">\n${options.main}\n</main>\n</div>`
    : `<div class="layout single"><main id="main">\n${options.main}\n</main></div>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<style>${STYLES}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
${options.header}
</header>
${body}
</body>
</html>
`;
}

export function methodBadge(method: string): string {
  return `<span class="method method-${escapeHtml(method.toLowerCase())}">${escapeHtml(method.toUpperCase())}</span>`;
}
