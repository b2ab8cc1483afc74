import { Status } from '@svc/protocol';
import type { Page } from '@playwright/test';
import { checkoutOutcome, expect, expectAxeClean, openInBackOffice, test, waitForCallback, waitForStatus, type Stack } from '../fixtures';

/**
 * The Express checkout on the demo shop: the consumer presses a wallet button, approves in the sandbox wallet sheet
 * (drawn by the component, prefilled with test details), the shop's backend commits the order, and the transaction
 * reads Approved (0) in the service and in the signed callback the shop shows.
 */
const WALLETS = [
  { button: 'Pay with PayPal', sheet: 'PayPal', method: 'paypal' },
  { button: 'Pay with Apple Pay', sheet: 'Apple Pay', method: 'applepay' },
  { button: 'Pay with Google Pay', sheet: 'Google Pay', method: 'googlepay' },
] as const;

async function openExpress(page: Page, stack: Stack, methodType = 'manual_capture') {
  await page.goto(`${stack.demoUrl}/express.html?methodType=${methodType}`);
  await expect(page.getByRole('button', { name: 'Pay with PayPal' })).toBeEnabled();
  // The script is loaded with the SRI hash the service publishes (the browser refuses it on a mismatch).
  const integrity = await page.evaluate(() => document.querySelector<HTMLScriptElement>('script[src$="/sdk/express/1.0.0/sdk.js"]')?.integrity);
  expect(integrity).toMatch(/^sha384-/);
}

for (const wallet of WALLETS) {
  test(`${wallet.sheet}: paid in the sandbox sheet, committed by the shop, Approved (0) with a verified callback`, async ({ page, stack, api }) => {
    await openExpress(page, stack);
    await page.getByRole('button', { name: wallet.button }).click();
    const sheet = page.getByRole('dialog', { name: wallet.sheet });
    await expect(sheet).toBeVisible();
    await expect(sheet).toContainText('Total $25.00');
    await expect(sheet.getByRole('group', { name: 'Billing details' }).getByRole('textbox', { name: 'First name' })).toHaveValue('Jane');
    await sheet.getByRole('button', { name: 'Pay' }).click();
    await expect(sheet).toBeHidden();

    const outcome = checkoutOutcome(page);
    await expect(outcome).toContainText('Approved (status 0)');
    const transactionNumber = (await outcome.getAttribute('data-transaction'))!;
    const transaction = await waitForStatus(api, transactionNumber, Status.Approved);
    expect(transaction).toMatchObject({
      status: 0,
      statusName: 'Approved',
      amountCents: 2500,
      paymentMethodData: { PaymentType: wallet.method },
      paymentCommit: { isPaymentCommitted: true },
    });
    await waitForCallback(stack, transactionNumber, Status.Approved);
    await expect(page.getByRole('status', { name: 'Callback' })).toHaveText('Callback received: Approved (status 0), signature verified');
  });
}

test('a cancelled sheet pays nothing and leaves every button ready', async ({ page, stack }) => {
  await openExpress(page, stack);
  await page.getByRole('button', { name: 'Pay with Google Pay' }).click();
  const sheet = page.getByRole('dialog', { name: 'Google Pay' });
  await sheet.getByRole('button', { name: 'Cancel' }).click();
  await expect(sheet).toBeHidden();
  await expect(checkoutOutcome(page)).toContainText('payment_cancelled');
  for (const wallet of WALLETS) await expect(page.getByRole('button', { name: wallet.button })).toBeEnabled();
  await expectAxeClean(page);
  // Escape cancels too.
  await page.getByRole('button', { name: 'Pay with PayPal' }).click();
  await expect(page.getByRole('dialog', { name: 'PayPal' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'PayPal' })).toBeHidden();
  // The shop's order was never paid.
  const orderLink = await page.getByRole('link', { name: 'See this order in the back office', includeHidden: true }).getAttribute('href');
  const orderId = new URL(orderLink!, stack.demoUrl).searchParams.get('order');
  const shopOrder = (await (await fetch(`${stack.demoUrl}/api/orders/${orderId}`)).json()) as { transactionNumber: string | null };
  expect(shopOrder).toMatchObject({ transactionNumber: null });
});

test('authorize through Express, then capture in the back office', async ({ page, stack, api }) => {
  await openExpress(page, stack, 'authorize');
  await page.getByRole('button', { name: 'Pay with Apple Pay' }).click();
  await page.getByRole('dialog', { name: 'Apple Pay' }).getByRole('button', { name: 'Pay' }).click();
  const outcome = checkoutOutcome(page);
  await expect(outcome).toContainText('Authorized (status 5)');
  const transactionNumber = (await outcome.getAttribute('data-transaction'))!;
  expect(await waitForStatus(api, transactionNumber, Status.Authorized)).toMatchObject({ amountCents: 2500, paymentDetails: { type: 'authorization' } });

  const order = await openInBackOffice(page, stack, transactionNumber);
  await order.getByLabel('Amount (USD)').fill('25.00');
  await order.getByRole('button', { name: 'Capture' }).click();
  await expect(order.getByRole('status', { name: 'Order status' })).toHaveText('Captured (7)');
  const captured = await waitForStatus(api, transactionNumber, Status.Captured);
  expect(captured.payments.map((payment) => [payment.amountCents, payment.status])).toEqual([[2500, 'succeeded']]);
  await waitForCallback(stack, transactionNumber, Status.Captured);
});
