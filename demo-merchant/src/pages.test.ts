import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@svc/protocol';
import { MENU, renderPage, withParts } from './pages';

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
      expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
      expect(html).toContain('<a class="brand" href="/">Demo merchant</a>');
      expect(menuOf(html).map(({ href, label }) => ({ href, label }))).toEqual(MENU.map(({ href, label }) => ({ href, label })));
      expect(html.match(/<nav /g)).toHaveLength(1);
      expect(html.match(/<h1>/g)).toHaveLength(1);
      expect(html.match(/<header>/g)).toHaveLength(1);
      expect(html.match(/<main[ >]/g)).toHaveLength(1);
      expect(html).not.toContain('<!-- title:');
      expect(html).not.toContain('<!-- part:');
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

  it.each(['checkout', 'express'] as const)('%s shows the order from the shared part, once, inside its order section', (name) => {
    const html = renderPage(name);
    const section = /<section aria-labelledby="order-title">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
    for (const id of ['order-title', 'order-lines', 'order-total', 'language']) {
      expect(html.match(new RegExp(`id="${id}"`, 'g')), id).toHaveLength(1);
      expect(section, id).toContain(`id="${id}"`);
    }
    expect(section).toMatch(/\n {8}<h2 id="order-title">Your order<\/h2>\n {8}<ul id="order-lines"><\/ul>\n/);
  });

  it('puts a part in at the indent of its line, and refuses a part that does not exist', () => {
    expect(withParts('<div>\n  <!-- part: order -->\n</div>\n', 'test')).toMatch(
      /^<div>\n {2}<h2 id="order-title">Your order<\/h2>\n {2}<ul [^\n]+\n {2}<p [^\n]+\n<\/div>\n$/,
    );
    expect(() => withParts('  <!-- part: nowhere -->\n', 'test')).toThrow(/pages\/parts\/nowhere\.html/);
  });
});
