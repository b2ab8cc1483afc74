import { Status } from '@svc/protocol';
import { CARDS, expect, fillCard, readOutbox, test, waitForCallback } from '../fixtures';

/**
 * "Send a payment link": the shop creates the transaction with the customer's phone, the sandbox outbox holds the SMS
 * with the link, the consumer opens it and pays on the service's payment page, and the shop's page follows the status live to Approved; the shop
 * receives the signed callback. A refused recipient shows the service's code and detail.
 */
test('a payment link sent by SMS is paid from the outbox and the page follows it live', async ({ page, context, stack, api }) => {
  await page.goto(`${stack.demoUrl}/pay-by-link.html`);
  await page.getByLabel('Phone number').fill('12');
  await page.getByRole('button', { name: 'Send the payment link' }).click();
  await expect(page.getByRole('alert')).toContainText('validation_failed: ');
  await expect(page.getByRole('alert')).toContainText('phone must be a phone number');

  await page.getByLabel('Phone number').fill('+15555550100');
  await page.getByRole('button', { name: 'Send the payment link' }).click();
  const status = page.getByRole('status', { name: 'Link status' });
  await expect(status).toHaveText('Pending (1)');
  const message = page.getByRole('listitem').filter({ hasText: 'SMS to +15555550100' });
  await expect(message).toContainText(`${stack.serviceUrl}/pay/`);
  const link = (await page.getByRole('link', { name: 'Open the payment page' }).getAttribute('href'))!;

  // The outbox, read through the service's API, holds the same link.
  const transactionNumber = (await status.getAttribute('data-transaction'))!;
  const [sms] = await readOutbox(api, transactionNumber);
  expect(sms).toMatchObject({ channel: 'sms', to: '+15555550100', status: 'sent' });
  expect(sms!.body).toContain(link);
  await expect(message).toContainText(sms!.body);

  // The link's QR code, drawn by the service.
  const qr = page.getByRole('img', { name: 'QR code of the payment link' });
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // The consumer opens the link from the message and pays on the service's payment page.
  const [consumer] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Open the payment page' }).click()]);
  expect(consumer.url()).toBe(link);
  await fillCard(consumer, 'hosted', CARDS.approved);
  await consumer.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(consumer.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  await expect(status).toHaveText('Approved (0)');
  expect((await api.get(transactionNumber)).status).toBe(Status.Approved);
  await waitForCallback(stack, transactionNumber, Status.Approved);
});
