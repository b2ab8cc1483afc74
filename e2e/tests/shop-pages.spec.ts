import { expect, expectAxeClean, test } from '../fixtures';

/**
 * Every page of the demo shop, ready to use: no serious or critical axe-core violation, nothing wider than the screen
 * (the phone project is 360 px wide), no request answered 404, and the shop's icon named and served.
 */
const PAGES = [
  { path: '/', ready: { role: 'button', name: 'Add Ceramic mug to the cart' } },
  { path: '/checkout.html?sdk=elements', ready: { role: 'button', name: 'Pay 25.00 USD' } },
  { path: '/checkout.html?sdk=iframe', ready: { role: 'button', name: 'Pay 25.00 USD' } },
  { path: '/express.html', ready: { role: 'button', name: 'Pay with PayPal' } },
  { path: '/pay-by-link.html', ready: { role: 'button', name: 'Send the payment link' } },
  { path: '/pos.html', ready: { role: 'button', name: 'Send the sale to the terminal' } },
  { path: '/back-office.html', ready: { role: 'button', name: 'Advance the clock' } },
] as const;

for (const { path, ready } of PAGES) {
  test(`${path} is accessible, fits the screen and asks for nothing missing`, async ({ page, stack }) => {
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
    });
    await page.goto(`${stack.demoUrl}${path}`);
    await expect(page.getByRole(ready.role, { name: ready.name })).toBeVisible();
    // The shop names its icon (a browser asks /favicon.ico of a page that names none: a 404 on every page).
    const icon = await page.locator('head link[rel="icon"]').getAttribute('href');
    const served = await page.request.get(new URL(icon!, page.url()).href);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    if (path.startsWith('/checkout')) await expect(page.getByTitle(/payment form/i)).toBeVisible();
    await expectAxeClean(page);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    expect(missing).toEqual([]);
  });
}
