import { Status } from '@svc/protocol';
import { expect, openInBackOffice, payOnCheckout, test, waitForCallback, waitForStatus } from '../fixtures';

/**
 * An authorization voided from the back office releases its hold; a capture afterwards is refused by the service;
 * the back office's search finds it at the service by its number and by the card's last four digits.
 */
test('authorize, then void: the hold is released and a later capture is refused', async ({ page, stack, api }) => {
  const { transactionNumber, outcome } = await payOnCheckout(page, stack, { methodType: 'authorize' });
  await expect(outcome).toContainText('Authorized (status 5)');
  const tn = transactionNumber!;

  const order = await openInBackOffice(page, stack, tn);
  await order.getByRole('button', { name: 'Void' }).click();
  await expect(order.getByRole('status', { name: 'Order status' })).toHaveText('Voided (8)');
  const voided = await waitForStatus(api, tn, Status.Voided);
  expect(voided.authorization).toMatchObject({ status: 'voided', capturedCents: 0, releasedCents: 2500, availableCents: 0 });
  await waitForCallback(stack, tn, Status.Voided);

  await order.getByLabel('Amount (USD)').fill('5.00');
  await order.getByRole('button', { name: 'Capture' }).click();
  await expect(order.getByRole('alert')).toContainText('Refused (capture): authorization_not_active:');
  expect((await api.get(tn)).status).toBe(Status.Voided);

  // The back office's search at the service: by the number, then by the card's last four digits among the voided
  // (the other specs void few); a status it does not have finds it no more.
  const found = page.getByRole('region', { name: 'Transactions found' });
  const search = async (q: string, status: string) => {
    await page.getByLabel('Transaction number, confirmation number or last four digits').fill(q);
    await page.getByLabel('Status', { exact: true }).selectOption({ label: status });
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  };
  const rows = found.getByRole('row');
  await search(tn, 'Any status');
  await expect(rows).toHaveCount(2); // the header and the transaction
  await expect(rows.filter({ hasText: tn })).toContainText('Voided (8)');
  await search('4242', 'Voided (8)');
  await expect(rows.filter({ hasNotText: 'Voided (8)' })).toHaveCount(1); // only the header
  await expect(rows.filter({ hasText: tn })).toContainText('ending in 4242');
  await search(tn, 'Captured (7)');
  await expect(rows).toHaveCount(1);
  await expect(page.getByText('No transaction matches.')).toBeVisible();
});
