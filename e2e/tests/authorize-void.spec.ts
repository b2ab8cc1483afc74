import { Status } from '@svc/protocol';
import { expect, openInBackOffice, payOnCheckout, test, waitForCallback, waitForStatus } from '../fixtures';

/** An authorization voided from the back office releases its hold; a capture afterwards is refused by the service. */
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
});
