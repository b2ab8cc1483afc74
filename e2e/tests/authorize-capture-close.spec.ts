import { Status } from '@svc/protocol';
import { expect, openInBackOffice, payOnCheckout, test, waitForCallback, waitForStatus } from '../fixtures';

/**
 * An authorization is captured in part from the back office, a capture above what is left is refused with the
 * service's own code and detail, and closeAuth releases the rest: the status query, the back office and the signed
 * callback the shop receives all end AuthorizationClosed (9).
 */
test('authorize, capture part, be refused more than is left, then close the authorization', async ({ page, stack, api }) => {
  const { transactionNumber, outcome } = await payOnCheckout(page, stack, { methodType: 'authorize' });
  await expect(outcome).toContainText('Authorized (status 5)');
  const tn = transactionNumber!;

  const order = await openInBackOffice(page, stack, tn);
  const status = order.getByRole('status', { name: 'Order status' });
  await expect(status).toHaveText('Authorized (5)');
  await order.getByLabel('Amount (USD)').fill('10.00');
  await order.getByRole('button', { name: 'Capture' }).click();
  await expect(status).toHaveText('PartiallyCaptured (6)');
  expect((await waitForStatus(api, tn, Status.PartiallyCaptured)).authorization).toMatchObject({ capturedCents: 1000, availableCents: 1500 });

  await order.getByLabel('Amount (USD)').fill('20.00');
  await order.getByRole('button', { name: 'Capture' }).click();
  await expect(order.getByRole('alert')).toContainText('Refused (capture): amount_exceeds_available:');
  expect((await api.get(tn)).authorization).toMatchObject({ capturedCents: 1000, availableCents: 1500 });

  await order.getByRole('button', { name: 'Close authorization' }).click();
  await expect(status).toHaveText('AuthorizationClosed (9)');
  await expect(order.getByRole('alert')).toBeEmpty();
  const closed = await waitForStatus(api, tn, Status.AuthorizationClosed);
  expect(closed.authorization).toMatchObject({ capturedCents: 1000, releasedCents: 1500, availableCents: 0 });
  expect(closed.payments.map((p) => [p.amountCents, p.status])).toEqual([[1000, 'succeeded']]);
  await waitForCallback(stack, tn, Status.AuthorizationClosed);
});
