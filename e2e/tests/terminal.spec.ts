import { createMerchantClient } from '@svc/protocol';
import { expect, expectAxeClean, provisionMerchant, test } from '../fixtures';

/**
 * The sandbox terminal simulator (docs/integrating.md#sandbox, #accessible-names): it shows the device's pending transaction live and taps test
 * cards; the consumer's page of the same transaction, open in another page, follows the payment live.
 */
test('a terminal simulator in a second page approves a device transaction', async ({ page, context, stack }) => {
  const merchant = await provisionMerchant('Terminal Deli', stack.demoUrl);
  const cashier = createMerchantClient({ baseUrl: stack.serviceUrl, apiKey: merchant.apiKey });

  const terminal = await context.newPage();
  await terminal.goto(`${stack.serviceUrl}/sandbox/terminal#${merchant.deviceId}`);
  await expect(terminal.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
  await expect(terminal.getByRole('heading', { name: 'No payment is waiting' })).toBeVisible();
  await expectAxeClean(terminal);

  const created = await cashier.init({ amount: 18, currency: 'CAD', deviceId: merchant.deviceId });
  await expect(terminal.getByRole('heading', { name: 'Payment to Terminal Deli' })).toBeVisible();
  await expect(terminal.getByText('CA$18.00')).toBeVisible();

  // The consumer's page of the same transaction (what the POS screen shows), open beside the terminal.
  await page.goto(created.transactionPage.qrURL);
  await expect(page.getByRole('button', { name: 'Pay 18.00 CAD' })).toBeEnabled();

  await terminal.getByRole('button', { name: 'Tap 4000 0000 0000 0002' }).click();
  await expect(page.getByRole('heading', { name: 'Payment declined' })).toBeVisible();
  await terminal.getByRole('button', { name: 'Tap 4242 4242 4242 4242' }).click();
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  await expect(terminal.getByText('Approved (card ending in 4242)')).toBeVisible();
  expect((await cashier.get(created.TransactionNumber)).status).toBe(0);
});

test('the consumer cancels on the terminal, and an unknown device ID connects nothing', async ({ page, stack }) => {
  const merchant = await provisionMerchant('Terminal Kiosk', stack.demoUrl);
  const cashier = createMerchantClient({ baseUrl: stack.serviceUrl, apiKey: merchant.apiKey });
  const created = await cashier.init({ amount: 2, currency: 'USD', deviceId: merchant.deviceId });

  await page.goto(`${stack.serviceUrl}/sandbox/terminal`);
  await page.getByLabel('Device ID').fill(merchant.deviceId);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('heading', { name: 'Payment to Terminal Kiosk' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel as the consumer' }).click();
  await expect(page.getByRole('heading', { name: 'No payment is waiting' })).toBeVisible();
  expect((await cashier.get(created.TransactionNumber)).status).toBe(4);

  const sockets: string[] = [];
  const stranger = await page.context().newPage();
  stranger.on('websocket', (socket) => sockets.push(socket.url()));
  await stranger.goto(`${stack.serviceUrl}/sandbox/terminal#dev_this_device_does_not_exist`);
  await expect(stranger.getByRole('status').filter({ hasText: 'unknown or revoked' })).toBeVisible();
  await expect(stranger.getByRole('button', { name: 'Tap 4242 4242 4242 4242' })).toBeHidden();
  expect(sockets).toEqual([]);
});

test('the terminal speaks its language through a payment: statuses and a refusal from the catalogue, no English', async ({ page, stack }) => {
  const merchant = await provisionMerchant('Imbiss am Markt', stack.demoUrl);
  const cashier = createMerchantClient({ baseUrl: stack.serviceUrl, apiKey: merchant.apiKey });
  await page.goto(`${stack.serviceUrl}/sandbox/terminal?lang=de#${merchant.deviceId}`);
  await expect(page.getByRole('status').filter({ hasText: 'Verbunden' })).toBeVisible();
  const created = await cashier.init({ amount: 9.5, currency: 'EUR', deviceId: merchant.deviceId });
  const terminal = page.getByRole('region', { name: 'Zahlung an Imbiss am Markt' });
  await expect(terminal).toContainText(`Transaktion ${created.TransactionNumber}: Offen`);

  await page.getByRole('button', { name: '4000 0000 0000 0002 vorhalten' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Abgelehnt:' })).toHaveText(
    'Abgelehnt: Ihre Karte wurde abgelehnt. Verwenden Sie eine andere Karte oder Zahlungsart.',
  );
  await expect(terminal).toContainText(`Transaktion ${created.TransactionNumber}: Abgelehnt`);
  await page.getByRole('button', { name: '4242 4242 4242 4242 vorhalten' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Genehmigt' })).toHaveText('Genehmigt (Karte endet auf 4242)');
  await expect(page.getByRole('main')).not.toContainText(/Pending|Approved|Declined|card_declined/);
});
