import { Status } from '@svc/protocol';
import { expect, openInBackOffice, payOnCheckout, test, waitForStatus } from '../fixtures';

/** A card saved at checkout (tokenize) is charged again later from the back office, with the token the shop kept. */
test('tokenize at checkout, then charge the saved card', async ({ page, stack, api }) => {
  const { transactionNumber, outcome } = await payOnCheckout(page, stack, { methodType: 'tokenize' });
  await expect(outcome).toContainText('Approved (status 0)');
  const saved = await waitForStatus(api, transactionNumber!, Status.Approved);
  expect(saved).toMatchObject({ methodType: 'tokenize', paymentDetails: { type: 'token' } });

  const order = await openInBackOffice(page, stack, transactionNumber!);
  await order.getByLabel('Amount to charge (USD)').fill('7.00');
  await order.getByRole('button', { name: 'Charge the saved card' }).click();
  await expect(page.getByRole('status', { name: 'Last action' })).toContainText('Charge done: Approved (0)');
  // The charge is a new sale of its own; the back office now shows it.
  const title = await page.getByRole('heading', { level: 2, name: /^Order / }).textContent();
  const charged = title!.replace('Order ', '');
  expect(charged).not.toBe(transactionNumber);
  const charge = await waitForStatus(api, charged, Status.Approved);
  expect(charge).toMatchObject({ amountCents: 700, currency: 'USD' });
});
