import { createMerchantClient } from '@svc/protocol';
import { expect, expectAxeClean, provisionMerchant, test } from '../fixtures';

/**
 * A device's sticker (docs/integrating.md#terminals-and-stickers): scanned before the cashier has started a payment, it waits on "No payment is
 * waiting" and moves on by itself to the payment page of the transaction the cashier then creates.
 */
test('a sticker opens the transaction the cashier creates on its device', async ({ page, stack }) => {
  // A merchant of its own, so that no other spec's pending device transaction is waiting on this sticker.
  const merchant = await provisionMerchant('Sticker Bakery', stack.demoUrl);
  const cashier = createMerchantClient({ baseUrl: stack.serviceUrl, apiKey: merchant.apiKey });
  expect(merchant.stickerUrl).toMatch(/\/s\/[0-9a-f]{32}$/);
  expect(merchant.stickerUrl).not.toContain(merchant.deviceId);

  await page.goto(merchant.stickerUrl!);
  await expect(page.getByRole('heading', { name: 'No payment is waiting' })).toBeVisible();
  await expectAxeClean(page);

  const created = await cashier.init({ amount: 6.4, currency: 'USD', deviceId: merchant.deviceId });
  await page.waitForURL(created.transactionPage.qrURL);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sticker Bakery');
  await page.getByRole('radio', { name: 'Google Pay' }).check();
  await page.getByRole('button', { name: 'Pay 6.40 USD' }).click();
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();

  // Paid: the sticker waits again rather than open it.
  await page.goto(merchant.stickerUrl!);
  await expect(page.getByRole('heading', { name: 'No payment is waiting' })).toBeVisible();
});
