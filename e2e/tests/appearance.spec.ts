import { CARDS, checkoutOutcome, expect, expectAxeClean, fillCard, test, type WidgetSdk } from '../fixtures';

/**
 * The widget's appearance on the demo checkout: the `night` theme reaches the card fields in the service's frame (for
 * Elements, its card frame; for the iframe SDK, its whole widget), axe finds no serious or critical violation on the
 * page nor in the frame, the theme switch changes the look in place (update({ appearance })) without losing what the
 * shopper typed, and the payment goes through. The method choice stays radios named for QA.
 */
const SDKS: WidgetSdk[] = ['elements', 'iframe'];
const NIGHT_INPUT = 'rgb(42, 46, 56)';
const FLAT_INPUT = 'rgb(236, 238, 242)';

for (const sdk of SDKS) {
  test(`the night theme with the ${sdk} SDK: readable, accessible, switched in place`, async ({ page, stack }) => {
    await page.goto(`${stack.demoUrl}/checkout.html?sdk=${sdk}&theme=night`);
    const title = sdk === 'elements' ? 'Secure card payment form' : 'Payment form';
    const fields = page.getByTitle(title).contentFrame();
    const number = fields.getByLabel('Card number');
    await expect(number).toBeVisible();
    await expect(number).toHaveCSS('background-color', NIGHT_INPUT);
    const methods = sdk === 'elements' ? page : fields;
    for (const name of ['Card', 'PayPal']) await expect(methods.getByRole('radio', { name })).toBeVisible();

    await fillCard(page, sdk, CARDS.approved);
    await expectAxeClean(page);
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame() && candidate.url().includes(sdk === 'elements' ? 'card-frame' : 'widget'));
    await expectAxeClean(frame!);

    await page.getByLabel('Theme').selectOption('flat');
    await expect(number).toHaveCSS('background-color', FLAT_INPUT);
    await expect(number).toHaveValue('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
    await expect(checkoutOutcome(page)).toContainText('Approved (status 0)');
  });
}
