import { Status } from '@svc/protocol';
import { EN } from '../../sdk-core/src/shared/i18n/en';
import ar from '../../sdk-core/src/shared/i18n/locales/ar.json' with { type: 'json' };
import de from '../../sdk-core/src/shared/i18n/locales/de.json' with { type: 'json' };
import es from '../../sdk-core/src/shared/i18n/locales/es.json' with { type: 'json' };
import fr from '../../sdk-core/src/shared/i18n/locales/fr.json' with { type: 'json' };
import he from '../../sdk-core/src/shared/i18n/locales/he.json' with { type: 'json' };
import ru from '../../sdk-core/src/shared/i18n/locales/ru.json' with { type: 'json' };
import { CARDS, expect, test, waitForStatus } from '../fixtures';

/**
 * The hosted payment page speaks the browser's language when the link says none: a Russian browser
 * (`Accept-Language: ru`) gets the page in Russian (`<html lang="ru">`), its names from ru.json (the same keys as
 * `en`'s accessible names), the pay button's amount in Russian separators, and the approved card pays it. An Arabic
 * one sees a US dollar amount as Arabic writes it, its sign whole.
 */
test.describe('in Russian', () => {
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
});

/** The visible characters of `element`'s text as Chromium lays them out, left to right (marks and spaces left out). */
const seenLeftToRight = (element: Element): string => {
  const glyphs: { char: string; x: number }[] = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    for (let i = 0; i < node.length; i += 1) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      if (box.width > 0 && node.data[i]!.trim() !== '') glyphs.push({ char: node.data[i]!, x: box.left + box.width / 2 });
    }
  }
  return glyphs
    .sort((a, b) => a.x - b.x)
    .map((glyph) => glyph.char)
    .join('');
};

test.describe('in Arabic', () => {
  test.use({ locale: 'ar', extraHTTPHeaders: { 'Accept-Language': 'ar' } });

  test('a US dollar amount reads US$ beside the number, never $US; the pay button groups it as the heading does', async ({ page, api }) => {
    const created = await api.init({ amount: 1234.5, currency: 'USD' });
    await page.goto(created.transactionPage.qrURL);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const amount = page.getByText(/1,234\.50/).first();
    await expect(amount).toBeVisible();
    expect(await amount.evaluate(seenLeftToRight)).toBe('US$1,234.50');
    await expect(page.getByRole('button', { name: ar['page.payAmount'].replace('{amount}', '1,234.50').replace('{currency}', 'USD') })).toBeVisible();
  });
});

/**
 * The expiry and security code fields share a row: an error under one of them (three lines in French at 390 px) or a
 * longer label never moves the other one's input, in any language.
 */
test.describe('the expiry and security code fields at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  const CATALOGUES = { en: EN, he, ar, ru, fr, de, es } as const;

  for (const [language, texts] of Object.entries(CATALOGUES)) {
    test(`${language}: their inputs stay level when only one of them shows an error`, async ({ page, api }) => {
      const created = await api.init({ amount: 12.5, currency: 'EUR' });
      const link = new URL(created.transactionPage.qrURL);
      link.searchParams.set('lang', language);
      const expiry = page.getByLabel(texts['card.expiry.label']);
      const cvc = page.getByLabel(texts['card.cvc.label']);
      const tops = async () => [(await expiry.boundingBox())!.y, (await cvc.boundingBox())!.y];

      for (const [typedIn, other, error, otherError] of [
        [expiry, cvc, '#expiry-error', '#cvc-error'],
        [cvc, expiry, '#cvc-error', '#expiry-error'],
      ] as const) {
        await page.goto(link.href);
        await typedIn.fill('1');
        await typedIn.blur();
        await expect(page.locator(error)).not.toBeEmpty();
        await expect(page.locator(otherError)).toBeEmpty();
        await expect(other).toHaveAttribute('aria-invalid', 'false');
        const [expiryTop, cvcTop] = await tops();
        expect(Math.abs(expiryTop! - cvcTop!), `${error} shown`).toBeLessThan(0.5);
      }
    });
  }
});
