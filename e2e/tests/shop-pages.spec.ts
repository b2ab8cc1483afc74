import { expect, expectAxeClean, test } from '../fixtures';

/**
 * Every page of the demo shop, ready to use: no serious or critical axe-core violation, and nothing wider than the
 * screen (the phone project is 360 px wide).
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
  test(`${path} is accessible and fits the screen`, async ({ page, stack }) => {
    await page.goto(`${stack.demoUrl}${path}`);
    await expect(page.getByRole(ready.role, { name: ready.name })).toBeVisible();
    if (path.startsWith('/checkout')) await expect(page.getByTitle(/payment form/i)).toBeVisible();
    await expectAxeClean(page);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });
}
