import { Status } from '@svc/protocol';
import { expect, readOutbox, test, waitForCallback } from '../fixtures';

/**
 * "Send a payment link": the shop creates the transaction with the customer's phone, the sandbox outbox holds the SMS
 * with the link, the consumer pays that link, and the shop's page follows the status live to Approved; the shop
 * receives the signed callback. A refused recipient shows the service's code and detail.
 */
test('a payment link sent by SMS is paid from the outbox and the page follows it live', async ({ page, stack, api }) => {
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
  await expect(message).toContainText('Pay here: ');
  const link = (await page.getByRole('link', { name: 'Open the payment page' }).getAttribute('href'))!;

  // The outbox, read through the service's API, holds the same link.
  const transactionNumber = (await status.getAttribute('data-transaction'))!;
  const [sms] = await readOutbox(api, transactionNumber);
  expect(sms).toMatchObject({ channel: 'sms', to: '+15555550100', status: 'sent' });
  expect(sms!.body).toContain(link);
  await expect(message).toContainText(sms!.body);

  // The consumer pays the link (what its payment page sends).
  const paid = await fetch(`${link.replace(/\/+$/, '')}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' } }) });
  expect(paid.status).toBe(200);
  await expect(status).toHaveText('Approved (0)');
  expect((await api.get(transactionNumber)).status).toBe(Status.Approved);
  await waitForCallback(stack, transactionNumber, Status.Approved);
});
