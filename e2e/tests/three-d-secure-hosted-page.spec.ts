import { Status } from '@svc/protocol';
import he from '../../sdk-core/src/shared/i18n/locales/he.json' with { type: 'json' };
import { expect, expectAxeClean, test, waitForStatus } from '../fixtures';

/** The sandbox's 3-D Secure card whose bank asks the consumer (docs/integrating.md#3-d-secure). */
const CHALLENGE_CARD = '4000000000003220';

/**
 * A shopper on a phone, in Hebrew, pays a link with a card whose bank asks for 3-D Secure: the hosted page gives its
 * place to the simulated bank page (in Hebrew, right to left, axe-clean), "Complete authentication" brings them back
 * to the link, which shows the payment approved, and the number of payments chosen beside the card fields (which
 * cannot change while the payment runs) is kept.
 */
test.describe('3-D Secure on the hosted page', () => {
  test.use({ viewport: { width: 360, height: 780 }, locale: 'he-IL', extraHTTPHeaders: { 'Accept-Language': 'he' } });

  test('a challenge completed at 360 px in Hebrew approves the link, in 3 payments', async ({ page, api }) => {
    const created = await api.init({ amount: 300, currency: 'ILS', maxInstallments: 6 });
    await page.goto(created.transactionPage.qrURL);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

    await page.getByLabel(he['card.number.label']).fill(CHALLENGE_CARD);
    await page.getByLabel(he['card.expiry.label']).fill('12/34');
    await page.getByLabel(he['card.cvc.label']).fill('123');
    const installments = page.getByLabel(he['card.installments.label']);
    await installments.selectOption('3');
    // The payment is held at the service's door: while it runs, its number of payments cannot change.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === new URL(created.transactionPage.qrURL).pathname,
      async (route) => {
        if (route.request().method() === 'POST') await held;
        await route.fallback();
      },
    );
    await page.locator('#pay-button').click();
    await expect(installments).toBeDisabled();
    release();

    await expect(page.getByRole('heading', { name: he['page.authentication.title'] })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'he');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expectAxeClean(page);
    await waitForStatus(api, created.TransactionNumber, Status.AwaitingAuthentication);

    await page.getByRole('button', { name: he['page.authentication.complete'] }).click();
    await expect(page.getByRole('heading', { name: he['page.approved'] })).toBeVisible();
    const paid = await waitForStatus(api, created.TransactionNumber, Status.Approved);
    expect(paid.confirmation).toMatchObject({ installments: 3, threeDSecure: { authenticated: true, flow: 'challenge' } });
  });
});
