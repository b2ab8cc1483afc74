import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@svc/protocol';
import { MENU, renderPage } from './pages';

const navOf = (html: string) => /<nav aria-label="Shop">[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
const menuOf = (html: string) =>
  [...navOf(html).matchAll(/<li><a href="([^"]+)"( aria-current="page")?>([^<]+)<\/a><\/li>/g)].map((m) => ({
    href: m[1],
    current: Boolean(m[2]),
    label: m[3],
  }));

describe('shop pages', () => {
  it.each(['index', 'checkout', 'express', 'pay-by-link', 'pos', 'back-office'] as const)(
    '%s has one head, the shop name, the whole menu and its own content',
    (name) => {
      const html = renderPage(name);
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html).toContain('<link rel="stylesheet" href="/styles.css" />');
      expect(html).toContain('<a class="brand" href="/">Demo merchant</a>');
      expect(menuOf(html).map(({ href, label }) => ({ href, label }))).toEqual(MENU.map(({ href, label }) => ({ href, label })));
      expect(html.match(/<nav /g)).toHaveLength(1);
      expect(html.match(/<h1>/g)).toHaveLength(1);
      expect(html.match(/<header>/g)).toHaveLength(1);
      expect(html.match(/<main[ >]/g)).toHaveLength(1);
      expect(html).not.toContain('<!-- title:');
      expect(html.trimEnd().endsWith('</html>')).toBe(true);
    },
  );

  it('marks the current page in the menu, and only it', () => {
    for (const entry of MENU)
      expect(
        menuOf(renderPage(entry.page))
          .filter((item) => item.current)
          .map((item) => item.href),
      ).toEqual([entry.href]);
    expect(menuOf(renderPage('checkout')).some((item) => item.current)).toBe(false);
  });

  it('titles each page after itself', () => {
    expect(renderPage('pos')).toContain('<title>Point of sale · Demo merchant</title>');
    expect(renderPage('index')).toContain('<title>Demo merchant</title>');
  });

  it.each(['checkout', 'express'] as const)('%s has a language switch beside the theme: auto and every language the widgets speak', (name) => {
    const html = renderPage(name);
    const select = /<label for="language">Language<\/label>\s*<select id="language">([\s\S]*?)<\/select>/.exec(html)?.[1] ?? '';
    expect([...select.matchAll(/<option value="([^"]+)"/g)].map((match) => match[1])).toEqual(['auto', ...LANGUAGES]);
    expect(html.indexOf('id="theme"')).toBeGreaterThan(-1);
    expect(html.indexOf('id="language"')).toBeGreaterThan(html.indexOf('id="theme"'));
  });
});
