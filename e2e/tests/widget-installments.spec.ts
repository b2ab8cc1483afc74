import { Status } from '@svc/protocol';
import { cardFields, checkoutOutcome, expect, fillCard, test, waitForStatus } from '../fixtures';

/**
 * Installments in the widgets (docs/integrating.md#3-d-secure-and-installments-in-the-widgets): the demo checkout offers
 * up to 6 payments (`config({ maxInstallments: 6 })`), the shopper chooses 3 beside the card fields, and the
 * authorization the shop commits carries them. The field is a script the widget loads when a session offers
 * installments, so this also proves the service serves it with the hash the widget was built with.
 */
for (const sdk of ['elements', 'iframe'] as const) {
  test(`${sdk === 'elements' ? 'Elements' : 'iframe SDK'}: the number of payments chosen reaches the authorization`, async ({ page, stack, api }) => {
    await page.goto(`${stack.demoUrl}/checkout.html?sdk=${sdk}&methodType=manual_capture&installments=6`);
    await fillCard(page, sdk);
    const payments = cardFields(page, sdk).getByLabel('Number of payments');
    await expect(payments.locator('option')).toHaveText(['1', '2', '3', '4', '5', '6']);
    await payments.selectOption('3');
    await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
    const outcome = checkoutOutcome(page);
    await expect(outcome).toHaveAttribute('data-state', 'ok');
    const transaction = await waitForStatus(api, (await outcome.getAttribute('data-transaction'))!, Status.Approved);
    expect(transaction.confirmation?.installments).toBe(3);
  });
}

test('Elements: without installments offered the card form has no number of payments', async ({ page, stack, api }) => {
  // The field's script is asked for as the session's answer arrives, which is before the Pay button works: a payment
  // made is proof that a field wrongly offered would have been asked for by then.
  const fieldScripts: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('installments-field')) fieldScripts.push(request.url());
  });
  await page.goto(`${stack.demoUrl}/checkout.html?sdk=elements&methodType=manual_capture`);
  await fillCard(page, 'elements');
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  const outcome = checkoutOutcome(page);
  await expect(outcome).toHaveAttribute('data-state', 'ok');
  const transaction = await waitForStatus(api, (await outcome.getAttribute('data-transaction'))!, Status.Approved);
  expect(transaction.confirmation?.installments, 'one payment').toBe(1);
  expect(fieldScripts).toEqual([]);
  await expect(cardFields(page, 'elements').getByLabel('Number of payments')).toHaveCount(0);
});
