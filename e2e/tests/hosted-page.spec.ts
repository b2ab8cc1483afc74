import type { Page } from '@playwright/test';
import jsQR from 'jsqr';
import { expect, expectAxeClean, readOutbox, test } from '../fixtures';

/**
 * The hosted payment page (docs/integrating.md#the-hosted-payment-page) as a consumer uses it: the link from the SMS, the card form, the wallets,
 * live updates and the QR code. Locators by role and accessible name only (docs/integrating.md#accessible-names).
 */
const PHONE = { width: 360, height: 780 };

async function typeCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await page.getByLabel('Security code (CVC)').fill('123');
}

async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test('a consumer on a 360 px phone pays the link from the SMS and sees the confirmation', async ({ page, api }) => {
  await page.setViewportSize(PHONE);
  const phone = `+1555${String(Date.now()).slice(-7)}`;
  const created = await api.init({ amount: 12.5, currency: 'USD', phone, products: [{ name: 'Espresso beans', quantity: 1, amount: 12.5 }] });
  const [sms] = (await readOutbox(api, created.TransactionNumber)).filter((m) => m.channel === 'sms');
  expect(sms!.body.length).toBeLessThanOrEqual(160);
  const link = /https?:\/\/\S+/.exec(sms!.body)![0];
  expect(link).toBe(created.transactionPage.qrURL);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(created.businessName);
  await expect(page.getByText('$12.50', { exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Espresso beans' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Card' })).toBeChecked();
  for (const wallet of ['PayPal', 'Apple Pay', 'Google Pay']) await expect(page.getByRole('radio', { name: wallet })).toBeVisible();
  await fitsWidth(page, PHONE.width);
  await expectAxeClean(page);

  await typeCard(page, '4242 4242 4242 4242');
  const pageLoads: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === new URL(link).pathname) pageLoads.push(request.url());
  });
  await page.getByRole('button', { name: 'Pay 12.50 USD' }).click();
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeFocused();
  // Drawn from the payment's answer, without loading the page again, and as the server draws it (its sequence aside).
  expect(pageLoads).toEqual([]);
  const [drawn, served] = await page.evaluate(async () => {
    const shown = (doc: Document) => ({
      title: doc.title,
      main: doc
        .getElementById('page')!
        .outerHTML.replace(/ data-sequence="\d+"/, '')
        .replace(/>\s+</g, '><'),
    });
    const html = await (await fetch(location.pathname, { headers: { accept: 'text/html' } })).text();
    return [shown(document), shown(new DOMParser().parseFromString(html, 'text/html'))];
  });
  expect(drawn).toEqual(served);
  const paid = await api.get(created.TransactionNumber);
  expect(paid.status).toBe(0);
  await expect(page.getByText(paid.confirmation!.confirmationNumber!, { exact: true })).toBeVisible();
  await expect(page.getByText('ending in 4242')).toBeVisible();
  await expect(page.getByText(created.businessName, { exact: true })).toBeVisible();
  await fitsWidth(page, PHONE.width);
  await expectAxeClean(page);
});

test('the confirmation reuses the amount the server wrote: no Intl formatter on the way from the click', async ({ page, api }) => {
  // A page's first Intl formatter loads the language's data (tens of milliseconds): the approved view drawn from the
  // payment's answer writes the amount as the page already shows it instead.
  const created = await api.init({ amount: 1234.5, currency: 'EUR' });
  await page.goto(created.transactionPage.qrURL);
  await expect(page.getByText('€1,234.50', { exact: true })).toBeVisible();
  await page.evaluate(() => {
    const counted = window as unknown as { formatters: number };
    counted.formatters = 0;
    Intl.NumberFormat = new Proxy(Intl.NumberFormat, {
      construct: (target, args: ConstructorParameters<typeof Intl.NumberFormat>) => (counted.formatters++, new target(...args)),
      apply: (target, _this, args: ConstructorParameters<typeof Intl.NumberFormat>) => (counted.formatters++, target(...args)),
    });
  });
  await typeCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay 1,234.50 EUR' }).click();
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  await expect(page.getByText('€1,234.50', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { formatters: number }).formatters)).toBe(0);
});

test('a declined card says so, then another card pays the same link', async ({ page, api }) => {
  const created = await api.init({ amount: 30, currency: 'EUR' });
  await page.goto(created.transactionPage.qrURL);
  await typeCard(page, '4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Pay 30.00 EUR' }).click();
  await expect(page.getByRole('heading', { name: 'Payment declined' })).toBeVisible();
  await expectAxeClean(page);

  await typeCard(page, '5555 5555 5555 4444');
  await page.getByRole('button', { name: 'Pay 30.00 EUR' }).click();
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  const paid = await api.get(created.TransactionNumber);
  expect(paid.payments.map((p) => p.status)).toEqual(['failed', 'succeeded']);
});

test('a double click on a wallet pays once', async ({ page, api }) => {
  const created = await api.init({ amount: 4, currency: 'USD' });
  await page.goto(created.transactionPage.qrURL);
  await page.getByRole('radio', { name: 'PayPal' }).check();
  await expect(page.getByLabel('Card number')).toBeHidden();
  await page.getByRole('button', { name: 'Pay 4.00 USD' }).dblclick();
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  const paid = await api.get(created.TransactionNumber);
  expect(paid.payments).toHaveLength(1);
  expect(paid.paymentMethodData.PaymentType).toBe('paypal');
});

test('a cancel by the merchant shows live, without a reload', async ({ page, api }) => {
  const created = await api.init({ amount: 9.99, currency: 'USD', timeOut: 600 });
  await page.goto(created.transactionPage.qrURL);
  await expect(page.getByRole('button', { name: 'Pay 9.99 USD' })).toBeEnabled();
  await expect(page.getByText(/Time left to pay: \d+:\d\d/)).toBeVisible();
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  await api.cancel(created.TransactionNumber);
  await expect(page.getByRole('heading', { name: 'Payment cancelled' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await expectAxeClean(page);
});

test('an unknown link is a 404 page that says so', async ({ page, stack }) => {
  const response = await page.goto(`${stack.serviceUrl}/pay/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`);
  expect(response!.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Payment link not found' })).toBeVisible();
  await expectAxeClean(page);
});

test('the QR code image decodes to the qrURL', async ({ page, api }) => {
  const created = await api.init({ amount: 1, currency: 'USD' });
  await page.goto(created.transactionPage.qrURL);
  // Drawn on a canvas in the page (the image is the service's own, so the canvas can be read back).
  const image = await page.evaluate(
    async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#fff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(img, 0, 0);
      const data = context.getImageData(0, 0, canvas.width, canvas.height);
      return { width: data.width, height: data.height, pixels: Array.from(data.data) };
    },
    `${new URL(created.transactionPage.qrURL).pathname}/qr.svg`,
  );
  const decoded = jsQR(Uint8ClampedArray.from(image.pixels), image.width, image.height);
  expect(decoded?.data).toBe(created.transactionPage.qrURL);
});
