import { Status } from '@svc/protocol';
import { expect, openInBackOffice, payOnCheckout, test, waitForStatus } from '../fixtures';

/**
 * Re-authorization from the back office: what is left of the hold is released and a new hold of the new amount is
 * placed; a capture then spends the new hold.
 */
test('re-authorize a larger amount, then capture from the new hold', async ({ page, stack, api }) => {
  const { transactionNumber, outcome } = await payOnCheckout(page, stack, { methodType: 'authorize' });
  await expect(outcome).toContainText('Authorized (status 5)');
  const tn = transactionNumber!;

  const order = await openInBackOffice(page, stack, tn);
  const status = order.getByRole('status', { name: 'Order status' });
  await order.getByLabel('Amount (USD)').fill('30.00');
  await order.getByRole('button', { name: 'Re-authorize' }).click();
  await expect(order.getByRole('status', { name: 'Last action' })).toContainText('Re-authorization done');
  await expect(status).toHaveText('Authorized (5)');
  const renewed = await waitForStatus(api, tn, Status.Authorized);
  expect(renewed.authorization).toMatchObject({ status: 'active', availableCents: 3000 });

  await order.getByLabel('Amount (USD)').fill('30.00');
  await order.getByRole('button', { name: 'Capture' }).click();
  await expect(status).toHaveText('Captured (7)');
  expect((await waitForStatus(api, tn, Status.Captured)).authorization).toMatchObject({ availableCents: 0 });
});
