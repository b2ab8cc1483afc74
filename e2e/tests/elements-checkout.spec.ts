import { expect, test, type Page } from '@playwright/test';
import { createMerchantClient } from '@svc/protocol';

/**
 * The Elements widget on the demo merchant's checkout, against the real service: the consumer types a card in
 * the secure frame, the SDK pays, the demo backend commits with its API key.
 */
const demo = () => process.env.E2E_DEMO_URL!;
const service = () => createMerchantClient({ baseUrl: process.env.E2E_SERVICE_URL!, apiKey: process.env.E2E_API_KEY! });

async function typeCard(page: Page, number = '4242 4242 4242 4242') {
  const frame = page.frameLocator('iframe[title="Secure card payment form"]');
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await frame.getByLabel('Security code (CVC)').fill('123');
}

function outcome(page: Page) {
  return page.locator('#outcome');
}

test('manual capture paid with 4242… and committed by the backend ends Approved (0)', async ({ page }) => {
  await page.goto(`${demo()}/checkout.html`);
  await typeCard(page);
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(outcome(page)).toHaveAttribute('data-status', '0');
  const transaction = await service().get((await outcome(page).getAttribute('data-transaction'))!);
  expect(transaction).toMatchObject({ status: 0, statusName: 'Approved', methodType: 'manual_capture', amountCents: 2500 });
  expect(transaction.paymentCommit.isPaymentCommitted).toBe(true);
  expect(transaction.confirmation?.lastFourDigits).toBe('4242');
});

test('authorize ends Authorized (5) with a token that /transactions/pay accepts', async ({ page }) => {
  await page.goto(`${demo()}/checkout.html?methodType=authorize`);
  await typeCard(page);
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(outcome(page)).toHaveAttribute('data-status', '5');
  const authorized = await service().get((await outcome(page).getAttribute('data-transaction'))!);
  expect(authorized.paymentDetails?.type).toBe('authorization');
  // The shop's capture button calls /transactions/pay with that token from its backend.
  await page.getByRole('button', { name: 'Capture 25.00 USD' }).click();
  await expect(outcome(page)).toHaveAttribute('data-status', '7');
});

test('a commit after the window is refused and the transaction reads Expired (11)', async ({ page }) => {
  // Hold the shop's commit until the sandbox clock has moved past the 600 s window.
  await page.route('**/api/checkout/commit', async (route) => {
    await service().advanceSandboxClock(601);
    await route.continue();
  });
  await page.goto(`${demo()}/checkout.html`);
  await typeCard(page);
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(outcome(page)).toContainText('commit window');
  await expect(outcome(page)).toHaveAttribute('data-state', 'error');
  const expired = await service().get((await outcome(page).getAttribute('data-transaction'))!);
  expect(expired).toMatchObject({ status: 11, statusName: 'Expired' });
});

test('a declined card reaches the error callback and nothing is committed', async ({ page }) => {
  await page.goto(`${demo()}/checkout.html`);
  await typeCard(page, '4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(outcome(page)).toHaveAttribute('data-state', 'error');
  await expect(outcome(page)).toContainText('card_declined');
});
