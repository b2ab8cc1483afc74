import { expect, expectAxeClean, test } from '../fixtures';

/** The service's reference pages: no serious or critical axe-core violation, each event type with its example. */
for (const path of ['/docs/errors', '/docs/events']) {
  test(`${path} is accessible`, async ({ page, stack }) => {
    await page.goto(`${stack.serviceUrl}${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAxeClean(page);
  });
}

test('/docs/events names every event type a webhook endpoint may enable', async ({ page, stack }) => {
  await page.goto(`${stack.serviceUrl}/docs/events`);
  for (const type of ['transaction.updated', 'transaction.refunded', 'refund.updated']) {
    await expect(page.getByRole('heading', { level: 2, name: type })).toBeVisible();
  }
});
