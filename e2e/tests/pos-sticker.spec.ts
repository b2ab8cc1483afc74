import { Status } from '@svc/protocol';
import { CARDS, expect, fillCard, test, waitForCallback, waitForStatus } from '../fixtures';

/**
 * The counter's sticker: a consumer scans it with a phone and lands on the payment page of the sale waiting on the
 * shop's terminal, pays there by card, and the shop's point of sale follows the sale live to Approved.
 */
test('the counter sticker opens the waiting sale, which the consumer pays by card', async ({ page, context, stack, api }) => {
  expect(stack.merchant.stickerUrl).toMatch(/\/s\/[a-z0-9]+$/);
  await page.goto(`${stack.demoUrl}/pos.html`);
  await page.getByRole('button', { name: 'Send the sale to the terminal' }).click();
  const status = page.getByRole('status', { name: 'Sale status' });
  await expect(status).toHaveText('Pending (1)');
  const transactionNumber = (await status.getAttribute('data-transaction'))!;

  const [consumer] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Open the counter sticker' }).click()]);
  await fillCard(consumer, 'hosted', CARDS.approved);
  await consumer.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(consumer.getByRole('heading', { name: 'Payment approved' })).toBeVisible();

  await expect(status).toHaveText('Approved (0)');
  await waitForStatus(api, transactionNumber, Status.Approved);
  await waitForCallback(stack, transactionNumber, Status.Approved);
});
