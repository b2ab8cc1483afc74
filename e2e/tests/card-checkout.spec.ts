import { Status } from '@svc/protocol';
import { CARDS, expect, expectAxeClean, payOnCheckout, test, waitForCallback, waitForStatus, type WidgetSdk } from '../fixtures';

/**
 * A customer fills the cart, checks out with a widget SDK and pays by card: an approved card ends Approved (0), as
 * the service's status query and the signed callback the shop received both say; a declined card shows the
 * service's decline code and nothing is committed.
 */
const SDKS: WidgetSdk[] = ['elements'];

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
      // The SDK is loaded with the SRI hash the service publishes (the browser refuses it on a mismatch).
      await expectAxeClean(page);
      const transaction = await waitForStatus(api, transactionNumber!, Status.Approved);
      expect(transaction).toMatchObject({ methodType: 'manual_capture', amountCents: 2500, paymentCommit: { isPaymentCommitted: true }, confirmation: { lastFourDigits: '4242' } });
      await waitForCallback(stack, transactionNumber!, Status.Approved);
    });

    test('a declined card shows the service decline code and commits nothing', async ({ page, stack }) => {
      const { outcome } = await payOnCheckout(page, stack, { sdk, card: CARDS.declined });
      await expect(outcome).toContainText('card_declined');
      await expect(outcome).toHaveAttribute('data-state', 'error');
      // The shop committed nothing: its order has no transaction.
      const { orders } = (await (await fetch(`${stack.demoUrl}/api/orders`)).json()) as { orders: { transactionNumber: string | null; status: number | null }[] };
      expect(orders[0]).toMatchObject({ transactionNumber: null, status: null });
    });
  });
}
