import { Status } from '@svc/protocol';
import ru from '../../sdk-core/src/shared/i18n/locales/ru.json' with { type: 'json' };
import { CARDS, expect, test, waitForStatus } from '../fixtures';

/**
 * The hosted payment page speaks the browser's language when the link says none: a Russian browser
 * (`Accept-Language: ru`) gets the page in Russian (`<html lang="ru">`), its names from ru.json (the same keys as
 * `en`'s accessible names), the pay button's amount in Russian separators, and the approved card pays it.
 */
test.use({ locale: 'ru-RU', extraHTTPHeaders: { 'Accept-Language': 'ru' } });

test('a Russian browser pays the hosted page in Russian', async ({ page, api }) => {
  const created = await api.init({ amount: 12.5, currency: 'EUR' });
  await page.goto(created.transactionPage.qrURL);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByRole('radio', { name: ru['method.card'] })).toBeChecked();

  await page.getByLabel(ru['card.number.label']).fill(CARDS.approved);
  await page.getByLabel(ru['card.expiry.label']).fill('12/34');
  await page.getByLabel(ru['card.cvc.label']).fill('123');
  await page.getByRole('button', { name: ru['page.payAmount'].replace('{amount}', '12,50').replace('{currency}', 'EUR') }).click();
  await expect(page.getByRole('heading', { name: ru['page.approved'] })).toBeVisible();

  const paid = await waitForStatus(api, created.TransactionNumber, Status.Approved);
  expect(paid).toMatchObject({ amountCents: 1250, confirmation: { lastFourDigits: '4242' } });
  await expect(page.getByText(paid.confirmation!.confirmationNumber!, { exact: true })).toBeVisible();
});
