import { Status } from '@svc/protocol';
import { WALLETS, completeWallet, expect, expectAxeClean, test, waitForCallback, waitForStatus, type Wallet } from '../fixtures';

/**
 * The Express checkout with each sandbox wallet: the consumer approves in the wallet's sheet, the shop commits the
 * order's amount, and the service's status query and the signed callback say Approved (0).
 */
for (const wallet of Object.keys(WALLETS) as Wallet[]) {
  test(`Express: ${WALLETS[wallet]} approves and the shop commits`, async ({ page, stack, api }) => {
    await page.goto(`${stack.demoUrl}/express.html`);
    await completeWallet(page, wallet);
    const outcome = page.getByRole('status', { name: 'Payment outcome' });
    await expect(outcome).toContainText(`Approved (status 0)`);
    await expect(outcome).toContainText(`paid with ${wallet}`);
    const transactionNumber = (await outcome.getAttribute('data-transaction'))!;
    const paid = await waitForStatus(api, transactionNumber, Status.Approved);
    expect(paid).toMatchObject({ amountCents: 2500, paymentCommit: { isPaymentCommitted: true } });
    await waitForCallback(stack, transactionNumber, Status.Approved);
    if (wallet === 'paypal') await expectAxeClean(page);
  });
}
