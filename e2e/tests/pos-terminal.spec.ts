import { Status } from '@svc/protocol';
import { expect, test, waitForCallback, waitForStatus } from '../fixtures';

/**
 * The point of sale: the shop sends a sale to its terminal; the sandbox terminal simulator (the shop's device) shows
 * it, the consumer taps a test card there, and the shop's page follows the sale live to Approved; the service's status
 * query and the signed callback agree.
 */
test('a sale sent to the terminal is paid by tapping a card on the simulator', async ({ page, context, stack, api }) => {
  await page.goto(`${stack.demoUrl}/pos.html`);
  await page.getByRole('button', { name: 'Send the sale to the terminal' }).click();
  const status = page.getByRole('status', { name: 'Sale status' });
  await expect(status).toHaveText('Pending (1)');
  const transactionNumber = (await status.getAttribute('data-transaction'))!;
  const qr = page.getByRole('img', { name: 'QR code to pay this sale' });
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  const [terminal] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Open the terminal simulator' }).click()]);
  await expect(terminal.getByRole('region', { name: /^Payment to / })).toContainText('25.00');
  await terminal.getByRole('button', { name: 'Tap 4242 4242 4242 4242' }).click();

  await expect(status).toHaveText('Approved (0)');
  const paid = await waitForStatus(api, transactionNumber, Status.Approved);
  expect(paid).toMatchObject({ amountCents: 2500, pos: 'Demo counter', confirmation: { lastFourDigits: '4242' } });
  await waitForCallback(stack, transactionNumber, Status.Approved);
});
