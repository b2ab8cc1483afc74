import { Status } from '@svc/protocol';
import { expect, openInBackOffice, payOnCheckout, test, waitForCallback, waitForStatus } from '../fixtures';

/**
 * The captures of an authorization are refunded once its hold has ended: while it holds funds the service refuses
 * (`authorization_active`, its detail says to void first); after the void, part of what was captured is refunded
 * (PartiallyRefunded 13) and never more than was captured.
 */
test('a captured authorization is refunded in part once its hold has ended', async ({ page, stack, api }) => {
  const { transactionNumber, outcome } = await payOnCheckout(page, stack, { methodType: 'authorize' });
  await expect(outcome).toContainText('Authorized (status 5)');
  const tn = transactionNumber!;

  const order = await openInBackOffice(page, stack, tn);
  const status = order.getByRole('status', { name: 'Order status' });
  await order.getByLabel('Amount (USD)').fill('10.00');
  await order.getByRole('button', { name: 'Capture' }).click();
  await expect(status).toHaveText('PartiallyCaptured (6)');

  await order.getByLabel('Amount to refund').fill('4.00');
  await order.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(order.getByRole('alert')).toContainText('Refused (refund): authorization_active:');
  await expect(order.getByRole('alert')).toContainText('void it or closeAuth it first');

  await order.getByRole('button', { name: 'Void' }).click();
  await expect(status).toHaveText('Voided (8)');
  await order.getByLabel('Amount to refund').fill('10.01');
  await order.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(order.getByRole('alert')).toContainText('Refused (refund): amount_exceeds_refundable: Only 1000 cents are refundable');

  await order.getByLabel('Amount to refund').fill('4.00');
  await order.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(status).toHaveText('PartiallyRefunded (13)');
  await expect(order.getByRole('region', { name: 'Refunds' })).toContainText('4.00');
  const refunded = await waitForStatus(api, tn, Status.PartiallyRefunded);
  expect(refunded).toMatchObject({
    refundedCents: 400,
    refundableCents: 600,
    authorization: { status: 'voided', capturedCents: 1000, releasedCents: 1500 },
  });
  await waitForCallback(stack, tn, Status.PartiallyRefunded);
});
