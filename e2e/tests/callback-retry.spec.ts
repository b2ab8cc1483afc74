import { Status } from '@svc/protocol';
import { expect, openInBackOffice, payOnCheckout, receivedCallbacks, test, waitForCallback } from '../fixtures';

/**
 * The shop's callback endpoint fails (the back office makes it answer 503): the service keeps the delivery pending
 * and retries it when the sandbox clock reaches the next attempt; once the endpoint works again, the back office
 * redelivers it and the shop receives it, signed, with the same webhook-id.
 */
test.afterEach(async ({ stack }) => {
  await fetch(`${stack.demoUrl}/api/callbacks/mode`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refusing: false }),
  });
});

test('a failing callback is retried on the clock, then redelivered from the back office', async ({ page, stack, api }) => {
  await page.goto(`${stack.demoUrl}/back-office.html`);
  const refuse = page.getByRole('checkbox', { name: 'Refuse callbacks' });
  await refuse.check();
  await expect.poll(async () => ((await (await fetch(`${stack.demoUrl}/api/callbacks`)).json()) as { refusing: boolean }).refusing).toBe(true);

  const { transactionNumber } = await payOnCheckout(page, stack);
  const tn = transactionNumber!;
  await expect.poll(async () => (await api.callbacks(tn)).deliveries[0]?.attempts.map((a) => a.httpStatus)).toEqual([503]);
  expect((await receivedCallbacks(stack, tn)).map((c) => c.answeredStatus)).toEqual([503]);

  const order = await openInBackOffice(page, stack, tn);
  await expect(order.getByRole('row', { name: /pending/ })).toContainText('503');
  await page.getByLabel('Seconds to move the clock forward').fill('15');
  await page.getByRole('button', { name: 'Advance the clock' }).click();
  await expect.poll(async () => (await api.callbacks(tn)).deliveries[0]?.attempts.map((a) => a.httpStatus)).toEqual([503, 503]);
  expect((await api.callbacks(tn)).deliveries[0]!.state).toBe('pending');

  await page.getByRole('checkbox', { name: 'Refuse callbacks' }).uncheck();
  await expect.poll(async () => ((await (await fetch(`${stack.demoUrl}/api/callbacks`)).json()) as { refusing: boolean }).refusing).toBe(false);
  const { sequence, eventId } = (await api.callbacks(tn)).deliveries[0]!;
  await order.getByRole('button', { name: `Redeliver update ${sequence}` }).click();
  await expect.poll(async () => (await api.callbacks(tn)).deliveries[0]?.state).toBe('succeeded');
  const received = await waitForCallback(stack, tn, Status.Approved);
  expect(received.eventId).toBe(eventId);
  await expect(order.getByRole('row', { name: /succeeded/ })).toBeVisible();
});
