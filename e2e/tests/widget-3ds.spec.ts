import { Status } from '@svc/protocol';
import type { Page } from '@playwright/test';
import { answerChallenge, CHALLENGE_CARDS, checkoutOutcome, expect, fillCard, test, waitForStatus } from '../fixtures';

/**
 * 3-D Secure in the widgets (docs/integrating.md#3-d-secure-and-installments-in-the-widgets): the sandbox's challenge card
 * on the demo shop's checkout. In Elements the shopper completes the challenge in the dialog over the widget and the
 * shop commits the payment as any other; in the iframe SDK the shopper fails it and the shop shows the decline code.
 */
async function payWithChallenge(page: Page, demoUrl: string, sdk: 'elements' | 'iframe') {
  await page.goto(`${demoUrl}/checkout.html?sdk=${sdk}&methodType=manual_capture`);
  await fillCard(page, sdk, CHALLENGE_CARDS.challenge);
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
}

test('Elements: a challenge completed in the dialog is paid and committed', async ({ page, stack, api }) => {
  await payWithChallenge(page, stack.demoUrl, 'elements');
  await answerChallenge(page, 'elements', 'complete');
  const outcome = checkoutOutcome(page);
  await expect(outcome).toHaveAttribute('data-state', 'ok');
  const transactionNumber = (await outcome.getAttribute('data-transaction'))!;
  const transaction = await waitForStatus(api, transactionNumber, Status.Approved);
  expect(transaction.confirmation?.threeDSecure).toMatchObject({ authenticated: true, flow: 'challenge' });
});

test('iframe SDK: a challenge failed at the bank is declined authentication_failed', async ({ page, stack }) => {
  await payWithChallenge(page, stack.demoUrl, 'iframe');
  await answerChallenge(page, 'iframe', 'fail');
  const outcome = checkoutOutcome(page);
  await expect(outcome).toHaveAttribute('data-state', 'error');
  await expect(outcome).toContainText('authentication_failed');
});
