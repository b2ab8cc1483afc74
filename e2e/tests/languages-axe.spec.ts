import type { Page, TestInfo } from '@playwright/test';
import { SDK_VERSIONS } from '@svc/protocol';
import { EN } from '../../sdk-core/src/shared/i18n/en';
import ar from '../../sdk-core/src/shared/i18n/locales/ar.json' with { type: 'json' };
import de from '../../sdk-core/src/shared/i18n/locales/de.json' with { type: 'json' };
import es from '../../sdk-core/src/shared/i18n/locales/es.json' with { type: 'json' };
import fr from '../../sdk-core/src/shared/i18n/locales/fr.json' with { type: 'json' };
import he from '../../sdk-core/src/shared/i18n/locales/he.json' with { type: 'json' };
import ru from '../../sdk-core/src/shared/i18n/locales/ru.json' with { type: 'json' };
import { expect, expectAxeClean, test } from '../fixtures';

/**
 * Every language the service speaks (docs/languages.md), on the two surfaces a shopper pays on: the demo's Elements
 * checkout (the page and the card frame) and the service's hosted payment page, and on the pages that refuse (an
 * unknown link or sticker, a frame refused to a site). Each is axe-clean (no serious or critical violation) once it
 * speaks that language, and a full-page screenshot of each payment surface is attached to the report.
 */
const CATALOGUES: Record<string, Record<keyof typeof EN, string>> = { en: EN, he, ar, ru, fr, de, es };
const RIGHT_TO_LEFT = ['he', 'ar'];

async function attachScreenshot(page: Page, testInfo: TestInfo, name: string) {
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
}

for (const [language, t] of Object.entries(CATALOGUES)) {
  const dir = RIGHT_TO_LEFT.includes(language) ? 'rtl' : 'ltr';

  test(`the Elements checkout in ${language} is axe-clean, card frame included`, async ({ page, stack }, testInfo) => {
    await page.goto(`${stack.demoUrl}/checkout.html?sdk=elements&lang=${language}`);
    await expect(page.getByRole('group', { name: t['widget.methods'] }).getByRole('radio', { name: t['method.card'] })).toBeChecked();
    const fields = page.getByTitle(t['widget.frame']).contentFrame();
    await expect(fields.getByLabel(t['card.number.label'])).toBeVisible();
    // The frame's document takes the host's language and direction (en is the frame's own default).
    await expect(fields.locator('html')).toHaveAttribute('lang', language);
    await expect(fields.locator('html')).toHaveCSS('direction', dir);

    await expectAxeClean(page);
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame() && candidate.url().includes('card-frame'));
    await expectAxeClean(frame!);
    await attachScreenshot(page, testInfo, `elements-checkout-${language}.png`);
  });

  test(`the hosted payment page in ${language} is axe-clean`, async ({ page, api }, testInfo) => {
    const created = await api.init({ amount: 12.5, currency: 'EUR', products: [{ name: 'Espresso beans', quantity: 1, amount: 12.5 }] });
    const link = new URL(created.transactionPage.qrURL);
    link.searchParams.set('lang', language);
    await page.goto(link.href);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.locator('html')).toHaveAttribute('dir', dir);
    await expect(page.getByRole('radio', { name: t['method.card'] })).toBeChecked();
    await expect(page.getByLabel(t['card.number.label'])).toBeVisible();

    await expectAxeClean(page);
    await attachScreenshot(page, testInfo, `hosted-page-${language}.png`);
  });

  test.describe(() => {
    // A browser in that language: its Accept-Language says it, which is how every consumer page takes it.
    test.use({ locale: language });

    test(`the refusal pages in ${language} (an unknown link or sticker, a refused frame) speak it and are axe-clean`, async ({ page, stack }) => {
      const elsewhere = encodeURIComponent('https://elsewhere.example');
      const refusals = [
        { url: `${stack.serviceUrl}/pay/${'0'.repeat(24)}`, status: 404, heading: t['page.linkNotFound'] },
        { url: `${stack.serviceUrl}/s/${'0'.repeat(24)}`, status: 404, heading: t['page.stickerNotFound'] },
        { url: `${stack.serviceUrl}/sdk/elements/${SDK_VERSIONS.elements}/card-frame.html?clientId=ck_unknown&origin=${elsewhere}`, status: 403 },
        { url: `${stack.serviceUrl}/sdk/iframe/${SDK_VERSIONS.iframe}/widget.html?clientId=ck_unknown&origin=${elsewhere}`, status: 403 },
      ];
      for (const { url, status, heading } of refusals) {
        const response = await page.goto(url);
        expect(response!.status(), url).toBe(status);
        await expect(page.locator('html'), url).toHaveAttribute('lang', language);
        await expect(page.locator('html'), url).toHaveAttribute('dir', dir);
        if (heading) {
          await expect(page).toHaveTitle(heading);
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
          await expect(page.getByText(t['page.notFound.text'])).toBeVisible();
        } else {
          await expect(page).toHaveTitle(t['page.frameRefused']);
          await expect(page.getByText(t['page.frameRefused.text'])).toBeVisible();
        }
        await expectAxeClean(page);
      }
    });
  });

  test(`the simulated bank page of 3-D Secure in ${language} is axe-clean`, async ({ page, api }, testInfo) => {
    const created = await api.init({ amount: 12.5, currency: 'EUR' });
    const paid = await page.request.post(created.transactionPage.qrURL, {
      data: { method: 'card', card: { number: '4000000000003220', expMonth: 12, expYear: 2034, cvc: '123' } },
    });
    expect(paid.status()).toBe(202);
    const bank = new URL(((await paid.json()) as { action: { url: string } }).action.url);
    bank.searchParams.set('lang', language);
    await page.goto(bank.href);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.locator('html')).toHaveAttribute('dir', dir);
    await expect(page.getByRole('button', { name: t['page.authentication.complete'], exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: t['page.authentication.fail'], exact: true })).toBeVisible();

    await expectAxeClean(page);
    await attachScreenshot(page, testInfo, `bank-page-${language}.png`);
  });
}
