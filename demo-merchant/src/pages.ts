import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';

const PAGES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../pages');

/** The shop's menu, in order: each entry is a page in pages/ and its link text. */
export const MENU = [
  { page: 'index', href: '/', label: 'Shop' },
  { page: 'pay-by-link', href: '/pay-by-link.html', label: 'Send a payment link' },
  { page: 'pos', href: '/pos.html', label: 'Point of sale' },
  { page: 'back-office', href: '/back-office.html', label: 'Back office' },
] as const;

/** Pages reached from another page rather than from the menu. */
const OTHER_PAGES = ['checkout', 'express'] as const;

type PageName = (typeof MENU)[number]['page'] | (typeof OTHER_PAGES)[number];

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`);
const indent = (html: string, by: string) => html.replace(/^(?=.)/gm, by);

/**
 * A page's source with each line `<!-- part: NAME -->` replaced by `pages/parts/NAME.html`, at that line's indent: what
 * several pages show alike (the checkout pages' order and language switch) is written once.
 */
export function withParts(source: string, page: string): string {
  return source.replace(/^( *)<!-- part: ([a-z-]+) -->\n/gm, (_line, by: string, part: string) => {
    const file = path.join(PAGES_DIR, 'parts', `${part}.html`);
    if (!existsSync(file)) throw new Error(`pages/${page}.html names a part that does not exist: pages/parts/${part}.html`);
    return indent(readFileSync(file, 'utf8'), by);
  });
}

/**
 * One page of the shop: `pages/NAME.html` holds only what is the page's own — a first-line comment `<!-- title: … -->`,
 * its `<header>` content (heading and introduction), then its `<main>` and scripts, with the parts it shares with other
 * pages named (`<!-- part: NAME -->`, see withParts) — and this adds the document head, the shop's name and its menu
 * (the current page marked `aria-current`), so no page repeats them.
 */
export function renderPage(name: PageName): string {
  const source = withParts(readFileSync(path.join(PAGES_DIR, `${name}.html`), 'utf8'), name);
  const parts = /^<!-- title: (?<title>[^\n]+?) -->\n<header>\n(?<intro>[\s\S]*?)<\/header>\n(?<body>[\s\S]*)$/.exec(source)?.groups;
  if (!parts?.['title'] || parts['intro'] === undefined || parts['body'] === undefined) {
    throw new Error(`pages/${name}.html must start with <!-- title: … --> and a <header> block`);
  }
  const menu = MENU.map((entry) => `<li><a href="${entry.href}"${entry.page === name ? ' aria-current="page"' : ''}>${escapeHtml(entry.label)}</a></li>`).join(
    '\n',
  );
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(parts['title'])}</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="/styles.css" />
  </head>
  <body>
    <header>
      <a class="brand" href="/">Demo merchant</a>
      <nav aria-label="Shop">
        <ul>
${indent(menu, '          ')}
        </ul>
      </nav>
${indent(parts['intro'], '    ')}    </header>
${indent(parts['body'], '    ')}  </body>
</html>
`;
}

/** Serves every page at `/NAME.html` and `/NAME` (the shop front also at `/`), rendered once at start-up. */
export function pageRoutes(): Router {
  const router = Router();
  for (const name of [...MENU.map((entry) => entry.page), ...OTHER_PAGES]) {
    const html = renderPage(name);
    const paths = name === 'index' ? ['/', '/index.html'] : [`/${name}.html`, `/${name}`];
    router.get(paths, (_req, res) => {
      res.type('html').send(html);
    });
  }
  return router;
}
