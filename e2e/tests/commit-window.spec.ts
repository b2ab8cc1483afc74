import { Status } from '@svc/protocol';
import { expect, moveClock, openInBackOffice, payOnCheckout, test, waitForStatus } from '../fixtures';

/**
 * The commit window runs out (the sandbox clock moves past it while the shop's commit is on its way): the service
 * refuses the commit, the checkout shows its code, the transaction reads Expired (11), and the order is not lost:
 * the back office shows it with the refusal.
 */
test('a commit after the window is refused, and the order stays in the back office as Expired', async ({ page, stack, api }) => {
  await page.route('**/api/checkout/commit', async (route) => {
    await moveClock(api, 601);
    await route.continue();
  });
  const { transactionNumber, outcome } = await payOnCheckout(page, stack);
  await expect(outcome).toContainText('commit_window_expired');
  await expect(outcome).toHaveAttribute('data-state', 'error');
  await waitForStatus(api, transactionNumber!, Status.Expired);

  const order = await openInBackOffice(page, stack, transactionNumber!);
  await expect(order.getByRole('status', { name: 'Order status' })).toHaveText('Expired (11)');
  await expect(order.getByRole('alert')).toContainText('Refused (commit): commit_window_expired:');
});
