import { expect, test, type Page } from '@playwright/test';
import { createMerchantClient } from '@svc/protocol';

/**
 * The Elements widget on the demo merchant's checkout, against the real service: the consumer types a card in
 * the secure frame, the SDK pays, the demo backend commits its order's amount with its API key.
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

/** Everything the demo's backend answers the page, to check no payment token reaches the browser. */
function shopAnswers(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', async (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/')) bodies.push(await response.text().catch(() => ''));
  });
  return bodies;
}

test('manual capture paid with 4242… and committed by the backend ends Approved (0)', async ({ page }) => {
  await page.goto(`${demo()}/checkout.html`);
  // The SDK is loaded with the SRI hash the service publishes (the browser refuses it on a mismatch).
  const script = page.locator('script[src$="/sdk/elements/1.1.1/sdk.js"]');
  await expect(script).toHaveAttribute('integrity', /^sha384-/);
  await expect(script).toHaveAttribute('crossorigin', 'anonymous');
  await typeCard(page);
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(outcome(page)).toHaveAttribute('data-status', '0');
  const transaction = await service().get((await outcome(page).getAttribute('data-transaction'))!);
  expect(transaction).toMatchObject({ status: 0, statusName: 'Approved', methodType: 'manual_capture', amountCents: 2500 });
  expect(transaction.paymentCommit.isPaymentCommitted).toBe(true);
  expect(transaction.confirmation?.lastFourDigits).toBe('4242');
});

test('authorize ends Authorized (5) with a token that /transactions/pay accepts', async ({ page }) => {
  const answers = shopAnswers(page);
  await page.goto(`${demo()}/checkout.html?methodType=authorize`);
  await typeCard(page);
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(outcome(page)).toHaveAttribute('data-status', '5');
  const transactionNumber = (await outcome(page).getAttribute('data-transaction'))!;
  const authorized = await service().get(transactionNumber);
  expect(authorized).toMatchObject({ amountCents: 2500, paymentDetails: { type: 'authorization' } });
  // The shop's capture button sends only its order id; its backend calls /transactions/pay with the token it kept.
  await page.getByRole('button', { name: 'Capture 25.00 USD' }).click();
  await expect(outcome(page)).toHaveAttribute('data-status', '7');
  const captured = await service().get(transactionNumber);
  expect(captured).toMatchObject({ status: 7, statusName: 'Captured', authorization: { capturedCents: 2500, availableCents: 0 } });
  expect(captured.payments.map((payment) => [payment.amountCents, payment.status])).toEqual([[2500, 'succeeded']]);
  await expect.poll(() => answers.length).toBeGreaterThanOrEqual(4); // config, order, commit, capture
  for (const answer of answers) expect(answer).not.toContain(authorized.paymentDetails!.token);
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
