import { Status } from '@svc/protocol';
import type { Page } from '@playwright/test';
import {
  cardFields,
  CARDS,
  checkoutOutcome,
  expect,
  expectAxeClean,
  fillCard,
  openInBackOffice,
  payOnCheckout,
  test,
  waitForCallback,
  waitForStatus,
  type WidgetSdk,
} from '../fixtures';

/**
 * A customer fills the cart, checks out with a widget SDK and pays by card: an approved card ends Approved (0), as
 * the service's status query and the signed callback the shop received both say; a declined card shows the
 * service's decline code and nothing is committed; an authorization is captured; the SDK's events and error codes are
 * the ones the shop's page reacts to. The same checkout page and the same tests for both SDKs: Elements 1.1.1 and the
 * iframe SDK 1.0.9 differ only in the script the page loads (`?sdk=iframe`).
 */
const SDKS: WidgetSdk[] = ['elements', 'iframe'];

/** The SDK's visualizer log on the checkout page (inside a closed <details>), one line per event. */
async function sdkEvents(page: Page, event: string): Promise<string[]> {
  const lines = await page
    .getByRole('list', { name: 'Payment SDK events', includeHidden: true })
    .getByRole('listitem', { includeHidden: true })
    .allTextContents();
  return lines.filter((line) => line.split(' ')[1] === event);
}

for (const sdk of SDKS) {
  test.describe(`checkout with the ${sdk} SDK`, () => {
    test('an approved card is committed by the shop and ends Approved', async ({ page, stack, api }) => {
      await page.goto(stack.demoUrl);
      await page.getByRole('button', { name: 'Add Loose-leaf tea, 100 g to the cart' }).click();
      await expect(page.getByText('Total: 33.00 USD')).toBeVisible();
      await page.getByRole('button', { name: 'Remove one Loose-leaf tea, 100 g' }).click();
      await expect(page.getByText('Total: 25.00 USD')).toBeVisible();
      await expectAxeClean(page);

      const { transactionNumber, outcome } = await payOnCheckout(page, stack, { sdk });
      await expect(outcome).toContainText('Approved (status 0)');
      // The widget says it once; its status line says what comes next.
      const widget = sdk === 'elements' ? page.locator('svc-ecom-sdk-elements') : cardFields(page, 'iframe').locator('body');
      await expect(widget.getByText('The merchant will confirm your order.')).toBeVisible();
      await expect(widget.getByText('Payment accepted')).toHaveCount(1);
      // The SDK is loaded with the SRI hash the service publishes (the browser refuses it on a mismatch).
      await expectAxeClean(page);
      const transaction = await waitForStatus(api, transactionNumber!, Status.Approved);
      expect(transaction).toMatchObject({
        methodType: 'manual_capture',
        amountCents: 2500,
        paymentCommit: { isPaymentCommitted: true },
        confirmation: { lastFourDigits: '4242' },
      });
      await waitForCallback(stack, transactionNumber!, Status.Approved);
    });

    test('a declined card shows the service decline code and commits nothing', async ({ page, stack }) => {
      const { outcome } = await payOnCheckout(page, stack, { sdk, card: CARDS.declined });
      await expect(outcome).toContainText('card_declined');
      await expect(outcome).toHaveAttribute('data-state', 'error');
      // The shop committed nothing: its order has no transaction.
      const { orders } = (await (await fetch(`${stack.demoUrl}/api/orders`)).json()) as {
        orders: { transactionNumber: string | null; status: number | null }[];
      };
      expect(orders[0]).toMatchObject({ transactionNumber: null, status: null });
    });

    test('an authorization is captured from the back office: Authorized (5), then Captured (7)', async ({ page, stack, api }) => {
      const { transactionNumber, outcome } = await payOnCheckout(page, stack, { sdk, methodType: 'authorize' });
      await expect(outcome).toContainText('Authorized (status 5)');
      const tn = transactionNumber!;
      expect(await api.get(tn)).toMatchObject({ status: Status.Authorized, amountCents: 2500, paymentDetails: { type: 'authorization' } });
      const order = await openInBackOffice(page, stack, tn);
      await order.getByLabel('Amount (USD)').fill('25.00');
      await order.getByRole('button', { name: 'Capture' }).click();
      await expect(order.getByRole('status', { name: 'Order status' })).toHaveText('Captured (7)');
      const captured = await waitForStatus(api, tn, Status.Captured);
      expect(captured.authorization).toMatchObject({ capturedCents: 2500, availableCents: 0 });
    });

    test('validation events enable the pay button; paying goes true, then false', async ({ page, stack }) => {
      await page.goto(`${stack.demoUrl}/checkout.html?sdk=${sdk}`);
      const pay = page.getByRole('button', { name: 'Pay 25.00 USD' });
      await expect(pay).toBeDisabled();
      await fillCard(page, sdk, '4242 4242 4242 4241');
      await expect.poll(async () => (await sdkEvents(page, 'paymentMethodValidationStatus')).at(-1)).toContain('"field":"number"');
      await expect(pay).toBeDisabled();
      await fillCard(page, sdk, CARDS.approved);
      await expect(pay).toBeEnabled();
      expect((await sdkEvents(page, 'paymentMethodValidationStatus')).at(-1)).toContain('{"isValid":true,"errors":[]}');
      await pay.click();
      await expect(checkoutOutcome(page)).toContainText('Approved (status 0)');
      const paying = await sdkEvents(page, 'paying');
      expect(paying.map((line) => line.slice(line.indexOf('{')))).toEqual(['{"isPaying":true}', '{"isPaying":false}']);
      // The events the widget sent never carry the card number.
      expect((await sdkEvents(page, 'paymentMethodValidationStatus')).join('\n')).not.toContain('4242');
    });

    test('errors reach the error callback with the same codes: funds, processor, options, a second pay at once', async ({ page, stack }) => {
      for (const [card, code] of [
        [CARDS.insufficientFunds, 'insufficient_funds'],
        [CARDS.processorFailure, 'processor_failure'],
      ] as const) {
        const { outcome } = await payOnCheckout(page, stack, { sdk, card });
        await expect(outcome).toContainText(`${code}:`);
        await expect(outcome).toHaveAttribute('data-state', 'error');
      }
      await page.goto(`${stack.demoUrl}/checkout.html?sdk=${sdk}`);
      await fillCard(page, sdk, CARDS.approved);
      await expect(page.getByRole('button', { name: 'Pay 25.00 USD' })).toBeEnabled();
      const outcome = checkoutOutcome(page);
      // The merchant page's own calls, the same snippet for both SDKs.
      await page.evaluate(() => {
        const sdk = (window as unknown as { ServiceFrontEndSDK: { pay: (cb: () => void, options: unknown) => void } }).ServiceFrontEndSDK;
        sdk.pay(() => undefined, { amount: 2500, currency: 'USD' });
        sdk.pay(() => undefined, { amount: 2500, currency: 'USD' });
      });
      await expect(outcome).toContainText('payment_in_progress:');
      await page.evaluate(() =>
        (window as unknown as { ServiceFrontEndSDK: { config: (options: unknown) => void } }).ServiceFrontEndSDK.config({ mode: 'live', clientId: 'ck_x' }),
      );
      await expect(outcome).toContainText("config_invalid: ServiceFrontEndSDK.config: mode must be 'sandbox' or 'production'.");
    });
  });
}
