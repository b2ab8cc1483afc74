import { Status } from '@svc/protocol';
import { CARDS, expect, fillCard, openInBackOffice, test, waitForCallback, waitForStatus } from '../fixtures';

/**
 * A customer returns a mug: an order paid on the service's hosted page is refunded from the back office, in part and
 * then the rest (PartiallyRefunded 13, then Refunded 14), each refund listed on the order; one more is refused in the
 * service's words; the link's page then says `Payment refunded` with the amount, and shows no form.
 */
test('an order paid on the hosted page is refunded from the back office, and its page says so', async ({ page, context, stack, api }) => {
  await page.goto(`${stack.demoUrl}/pay-by-link.html`);
  await page.getByLabel('Phone number').fill('+15555550100');
  await page.getByRole('button', { name: 'Send the payment link' }).click();
  const linkStatus = page.getByRole('status', { name: 'Link status' });
  await expect(linkStatus).toHaveText('Pending (1)');
  const tn = (await linkStatus.getAttribute('data-transaction'))!;
  const link = (await page.getByRole('link', { name: 'Open the payment page' }).getAttribute('href'))!;

  const consumer = await context.newPage();
  await consumer.goto(link);
  await fillCard(consumer, 'hosted', CARDS.approved);
  await consumer.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(consumer.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  await waitForStatus(api, tn, Status.Approved);

  const order = await openInBackOffice(page, stack, tn);
  const status = order.getByRole('status', { name: 'Order status' });
  await expect(status).toHaveText('Approved (0)');
  await order.getByLabel('Amount to refund').fill('10.00');
  await order.getByLabel('Reason').selectOption('duplicate');
  await order.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(status).toHaveText('PartiallyRefunded (13)');
  const refunds = order.getByRole('region', { name: 'Refunds' });
  await expect(refunds.getByRole('row')).toHaveCount(2);
  await expect(refunds).toContainText('10.00');
  await expect(refunds).toContainText('duplicate');
  expect(await waitForStatus(api, tn, Status.PartiallyRefunded)).toMatchObject({ refundedCents: 1000, refundableCents: 1500 });

  // Empty: everything still refundable.
  await order.getByLabel('Amount to refund').fill('');
  await order.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(status).toHaveText('Refunded (14)');
  await expect(refunds.getByRole('row')).toHaveCount(3);
  const refunded = await waitForStatus(api, tn, Status.Refunded);
  expect(refunded).toMatchObject({ refundedCents: 2500, refundableCents: 0 });
  expect(refunded.refunds.map((r) => [r.amountCents, r.status])).toEqual([
    [1000, 'succeeded'],
    [1500, 'succeeded'],
  ]);
  await waitForCallback(stack, tn, Status.Refunded);

  await order.getByLabel('Amount to refund').fill('1.00');
  await order.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(order.getByRole('alert')).toContainText('Refused (refund): amount_exceeds_refundable: Only 0 cents are refundable');

  await consumer.reload();
  await expect(consumer.getByRole('heading', { name: 'Payment refunded' })).toBeVisible();
  await expect(consumer.getByRole('definition').filter({ hasText: '$25.00' })).toHaveCount(2);
  await expect(consumer.getByRole('button', { name: /^Pay / })).toHaveCount(0);
});
