import { Status } from '@svc/protocol';
import he from '../../sdk-core/src/shared/i18n/locales/he.json' with { type: 'json' };
import { checkoutOutcome, CARDS, expect, test, waitForCallback, waitForStatus } from '../fixtures';

/**
 * A shopper on a 360 px phone checks out in Hebrew (`?lang=he`) with Elements: the widget lays out right to left, the
 * card fields are found by the Hebrew catalogue's names (the same keys as `en`'s accessible names), the card number
 * stays left to right as a card is printed, and the approved card is committed by the shop's backend and ends
 * Approved (0) in the status query and in a verified callback. The pay button is the shop's own (its text is English).
 */
test('a Hebrew checkout on a phone: right to left, the card number left to right, paid and committed', async ({ page, stack, api }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'a phone flow: runs in the phone project');
  await page.goto(`${stack.demoUrl}/checkout.html?sdk=elements&lang=he`);

  const methods = page.getByRole('group', { name: he['widget.methods'] });
  await expect(methods.getByRole('radio', { name: he['method.card'] })).toBeChecked();
  await expect(page.locator('svc-ecom-sdk-elements').locator('[part="base"]')).toHaveAttribute('dir', 'rtl');

  const frame = page.getByTitle(he['widget.frame']).contentFrame();
  const number = frame.getByLabel(he['card.number.label']);
  await expect(number).toBeVisible();
  await expect(frame.locator('html')).toHaveAttribute('dir', 'rtl');
  await number.fill(CARDS.approved);
  await frame.getByLabel(he['card.expiry.label']).fill('12/34');
  await frame.getByLabel(he['card.cvc.label']).fill('123');
  await expect(number).toHaveCSS('direction', 'ltr');
  await expect(number).toHaveValue(CARDS.approved);

  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  const outcome = checkoutOutcome(page);
  await expect(outcome).toContainText('Approved (status 0)');
  const transactionNumber = (await outcome.getAttribute('data-transaction'))!;
  const transaction = await waitForStatus(api, transactionNumber, Status.Approved);
  expect(transaction).toMatchObject({ amountCents: 2500, paymentCommit: { isPaymentCommitted: true }, confirmation: { lastFourDigits: '4242' } });
  await waitForCallback(stack, transactionNumber, Status.Approved);
});
