import { Status, type CommitResponse, type SdkSession, type Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../test/app';
import { addBranch, provisionTestMerchant } from '../../test/fixtures';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { authorizedHold, BETA_CARD, cardNumbered, codeOf, consumerPays, merchantClient, paidSale, REFUND_DECLINED_CARD } from '../../test/merchant-client';

/** Refunds (docs/integrating.md#refunds): settled money given back, in full or in parts, never twice, never more than paid. */
const SHOP = 'http://localhost:3000';
const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Mug Shop', origins: [SHOP] });

const detailOf = (body: unknown) => (body as { detail?: string }).detail ?? '';

/** A widget payment of `amount` cents awaiting its commit (status 10). */
async function widgetPayment(methodType: 'manual_capture' | 'authorize' | 'tokenize', amount: number): Promise<Transaction> {
  const started = await t.app.request('/sdk/sessions', { headers: { origin: SHOP }, body: { clientId: t.merchant.clientId, methodType, mode: 'sandbox' } });
  const session = (await started.json()) as SdkSession;
  const paid = await t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
    headers: { authorization: `Bearer ${session.sessionToken}`, origin: new URL(t.app.env.PUBLIC_BASE_URL).origin },
    body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' }, amount, currency: 'USD' },
  });
  expect(paid.status).toBe(200);
  return (await paid.json()) as Transaction;
}

const commit = (transactionNumber: string, amount: number) =>
  t.client.call<CommitResponse>('POST', `/transactions/${transactionNumber}/commit`, { amount, currency: 'USD' });

describe('refunding a sale', () => {
  it('in full by default: the refund succeeds and the transaction reads Refunded (14) with nothing left to refund', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 1_250);
    const before = (await t.client.get(transactionNumber)).body;
    expect(before).toMatchObject({ status: Status.Approved, refundedCents: 0, refundableCents: 1_250, refunds: [] });

    const refunded = await t.client.refund(transactionNumber);
    expect(refunded.status).toBe(200);
    expect(refunded.body.refund).toMatchObject({
      amountCents: 1_250,
      currency: 'USD',
      status: 'succeeded',
      reason: 'requested_by_customer',
      description: null,
      failureCode: null,
    });
    expect(refunded.body.refund.refundId).toMatch(/^rf_[A-Za-z0-9]{24}$/);
    expect(refunded.body.transaction).toMatchObject({ status: Status.Refunded, statusName: 'Refunded', refundedCents: 1_250, refundableCents: 0 });
    expect(refunded.body.transaction.refunds).toEqual([refunded.body.refund]);
    // The refund's creation and its outcome are two updates.
    expect(refunded.body.transaction.sequence).toBe(before.sequence + 2);
    expect((await t.client.get(transactionNumber)).body).toEqual(refunded.body.transaction);
  });

  it('in parts: PartiallyRefunded (13) until the last part, then Refunded (14); reason and description are kept', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 1_000);
    const first = await t.client.refund(transactionNumber, { amount: 400, reason: 'duplicate', description: 'charged twice at the till' });
    expect(first.status).toBe(200);
    expect(first.body.refund).toMatchObject({ amountCents: 400, reason: 'duplicate', description: 'charged twice at the till', status: 'succeeded' });
    expect(first.body.transaction).toMatchObject({
      status: Status.PartiallyRefunded,
      statusName: 'PartiallyRefunded',
      refundedCents: 400,
      refundableCents: 600,
    });

    const second = await t.client.refund(transactionNumber, { amount: 250 });
    expect(second.body.transaction).toMatchObject({ status: Status.PartiallyRefunded, refundedCents: 650, refundableCents: 350 });
    const last = await t.client.refund(transactionNumber);
    expect(last.body.refund.amountCents).toBe(350);
    expect(last.body.transaction).toMatchObject({ status: Status.Refunded, refundedCents: 1_000, refundableCents: 0 });
    expect(last.body.transaction.refunds.map((r) => r.amountCents)).toEqual([400, 250, 350]);
  });

  it('never for more than is refundable: 409 amount_exceeds_refundable names what is, and nothing changes', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 1_000);
    await t.client.refund(transactionNumber, { amount: 400 });
    const before = (await t.client.get(transactionNumber)).body;
    const over = await t.client.refund(transactionNumber, { amount: 601 });
    expect(over.status).toBe(409);
    expect(codeOf(over.body)).toBe('amount_exceeds_refundable');
    expect(detailOf(over.body)).toContain('Only 600 cents are refundable');
    expect(detailOf(over.body)).toContain('601 cents were asked for');
    expect((await t.client.get(transactionNumber)).body).toEqual(before);

    await t.client.refund(transactionNumber);
    const again = await t.client.refund(transactionNumber);
    expect(again.status).toBe(409);
    expect(codeOf(again.body)).toBe('amount_exceeds_refundable');
    expect(detailOf(again.body)).toContain('Only 0 cents are refundable');
  });

  it('a charge of a saved card (tokenize, commit, pay with the token) is refundable; the tokenization itself is not', async () => {
    const widget = await widgetPayment('tokenize', 500);
    const committed = await commit(widget.TransactionNumber, 500);
    expect(committed.status).toBe(200);
    const token = committed.body.paymentDetails!.token;
    const charged = await t.client.pay({ token, amount: 700, currency: 'USD' });
    expect(charged.status).toBe(200);
    const sale = charged.body.transaction.TransactionNumber;
    const refunded = await t.client.refund(sale, { amount: 700 });
    expect(refunded.status).toBe(200);
    expect(refunded.body.transaction).toMatchObject({ status: Status.Refunded, refundedCents: 700 });

    const tokenization = await t.client.refund(widget.TransactionNumber);
    expect(tokenization.status).toBe(409);
    expect(codeOf(tokenization.body)).toBe('nothing_to_refund');
    expect(detailOf(tokenization.body)).toContain('refund the sales charged on its token');
  });

  it('a committed widget payment (manual_capture) is refundable up to the committed amount', async () => {
    const widget = await widgetPayment('manual_capture', 2_000);
    const committed = await commit(widget.TransactionNumber, 1_500);
    expect(committed.body.transactionStatus).toBe(Status.Approved);
    const over = await t.client.refund(widget.TransactionNumber, { amount: 1_501 });
    expect(codeOf(over.body)).toBe('amount_exceeds_refundable');
    const refunded = await t.client.refund(widget.TransactionNumber);
    expect(refunded.body.transaction).toMatchObject({ status: Status.Refunded, refundedCents: 1_500 });
  });

  it('declined by the processor (test card 5126): 402 refund_declined, the refund kept as failed, the status and refundable unchanged', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 900, REFUND_DECLINED_CARD);
    const before = (await t.client.get(transactionNumber)).body;
    const declined = await t.client.refund(transactionNumber, { amount: 300 });
    expect(declined.status).toBe(402);
    expect(codeOf(declined.body)).toBe('refund_declined');
    const after = (await t.client.get(transactionNumber)).body;
    expect(after).toMatchObject({ status: Status.Approved, refundedCents: 0, refundableCents: 900 });
    expect(after.refunds).toHaveLength(1);
    expect(after.refunds[0]).toMatchObject({ amountCents: 300, status: 'failed', failureCode: 'refund_declined' });
    expect(after.sequence).toBe(before.sequence + 2);
  });
});

describe("a refunded link's hosted page", () => {
  it('says Payment refunded in part, then Payment refunded, with the amount refunded, and shows no form', async () => {
    const { transaction } = await paidSale(t.app, t.client, 1_250);
    await t.client.refund(transaction.TransactionNumber, { amount: 500 });
    const page = async () => (await t.app.request(new URL(transaction.transactionPage.qrURL).pathname)).text();
    const partly = await page();
    expect(partly).toContain('<h1 tabindex="-1">Payment refunded in part</h1>');
    expect(partly).toContain('The merchant gave part of the money back');
    expect(partly).toContain('<title>Payment refunded in part · Mug Shop</title>');
    expect(partly).toContain('<dt>Refunded</dt><dd>$5.00</dd>');
    expect(partly).not.toContain('id="pay-button"');
    await t.client.refund(transaction.TransactionNumber);
    const whole = await page();
    expect(whole).toContain('<h1 tabindex="-1">Payment refunded</h1>');
    expect(whole).toContain('<dt>Refunded</dt><dd>$12.50</dd>');
    const state = await t.app.request(`${new URL(transaction.transactionPage.qrURL).pathname}/state`);
    expect(await state.json()).toMatchObject({ status: Status.Refunded, refundedCents: 1_250, payable: false });
  });
});

describe('refunding an authorization', () => {
  it('its captures, once the hold has ended: fully captured (7), then in parts', async () => {
    const { transactionNumber, token } = await authorizedHold(t.app, t.client, 1_000);
    await t.client.pay({ token, amount: 1_000 });
    expect((await t.client.get(transactionNumber)).body).toMatchObject({ status: Status.Captured, refundableCents: 1_000 });
    const part = await t.client.refund(transactionNumber, { amount: 300 });
    expect(part.status).toBe(200);
    expect(part.body.transaction).toMatchObject({
      status: Status.PartiallyRefunded,
      refundedCents: 300,
      refundableCents: 700,
      authorization: { status: 'captured', capturedCents: 1_000 },
    });
    const rest = await t.client.refund(transactionNumber);
    expect(rest.body.transaction).toMatchObject({ status: Status.Refunded, refundedCents: 1_000 });
  });

  it('a partial capture after void (8) or closeAuth (9): only what was captured is refundable', async () => {
    const voided = await authorizedHold(t.app, t.client, 1_000);
    await t.client.pay({ token: voided.token, amount: 350 });
    expect((await t.client.void({ token: voided.token })).body.status).toBe(Status.Voided);
    const overVoided = await t.client.refund(voided.transactionNumber, { amount: 351 });
    expect(detailOf(overVoided.body)).toContain('Only 350 cents are refundable');
    expect((await t.client.refund(voided.transactionNumber)).body.transaction).toMatchObject({ status: Status.Refunded, refundedCents: 350 });

    const closed = await authorizedHold(t.app, t.client, 1_000);
    await t.client.pay({ token: closed.token, amount: 600 });
    expect((await t.client.closeAuth(closed.transactionNumber)).body.status).toBe(Status.AuthorizationClosed);
    const part = await t.client.refund(closed.transactionNumber, { amount: 100 });
    expect(part.body.transaction).toMatchObject({ status: Status.PartiallyRefunded, refundedCents: 100, refundableCents: 500 });
  });

  it('still holding funds (5 or 6): 409 authorization_active, whose detail says to void or closeAuth first', async () => {
    const { transactionNumber, token } = await authorizedHold(t.app, t.client, 1_000);
    const held = await t.client.refund(transactionNumber);
    expect(held.status).toBe(409);
    expect(codeOf(held.body)).toBe('authorization_active');
    expect(detailOf(held.body)).toContain('void it to release the hold');
    await t.client.pay({ token, amount: 200 });
    const partly = await t.client.refund(transactionNumber, { amount: 100 });
    expect(codeOf(partly.body)).toBe('authorization_active');
    expect(detailOf(partly.body)).toContain('void it or closeAuth it first');
    expect((await t.client.get(transactionNumber)).body).toMatchObject({ status: Status.PartiallyCaptured, refundableCents: 0, refunds: [] });
  });

  it('an expired hold with captures (11) is refundable; one without (voided or expired) has nothing to refund', async () => {
    const captured = await authorizedHold(t.app, t.client, 1_000);
    await t.client.pay({ token: captured.token, amount: 450 });
    const bare = await authorizedHold(t.app, t.client, 1_000, BETA_CARD);
    const voided = await authorizedHold(t.app, t.client, 1_000);
    await t.client.void({ token: voided.token });
    await t.client.advanceClock(8 * 24 * 3600);
    expect((await t.client.get(captured.transactionNumber)).body).toMatchObject({ status: Status.Expired, refundableCents: 450 });
    const refunded = await t.client.refund(captured.transactionNumber);
    expect(refunded.body.transaction).toMatchObject({ status: Status.Refunded, refundedCents: 450 });

    for (const { transactionNumber } of [bare, voided]) {
      const nothing = await t.client.refund(transactionNumber);
      expect(nothing.status).toBe(409);
      expect(codeOf(nothing.body)).toBe('nothing_to_refund');
      expect(detailOf(nothing.body)).toContain('released without a capture');
    }
  });
});

describe('nothing to refund', () => {
  it('on a pending sale (the detail says to cancel), a declined, cancelled, failed or timed-out one, or a payment awaiting its commit', async () => {
    const pending = await t.client.init({ amount: 500, isCent: true, currency: 'USD' });
    const refusedPending = await t.client.refund(pending.body.TransactionNumber);
    expect(refusedPending.status).toBe(409);
    expect(codeOf(refusedPending.body)).toBe('nothing_to_refund');
    expect(detailOf(refusedPending.body)).toContain('cancel it');

    const declined = await t.client.init({ amount: 500, isCent: true, currency: 'USD' });
    expect((await consumerPays(t.app, declined.body, cardNumbered('4000000000000002'))).status).toBe(402);
    const failed = await t.client.init({ amount: 500, isCent: true, currency: 'USD' });
    expect((await consumerPays(t.app, failed.body, cardNumbered('4000000000000119'))).status).toBe(502);
    const cancelled = await t.client.init({ amount: 500, isCent: true, currency: 'USD' });
    await t.client.cancel(cancelled.body.TransactionNumber);
    const awaiting = await widgetPayment('manual_capture', 500);
    for (const transactionNumber of [declined.body.TransactionNumber, failed.body.TransactionNumber, cancelled.body.TransactionNumber]) {
      const refused = await t.client.refund(transactionNumber);
      expect(codeOf(refused.body)).toBe('nothing_to_refund');
      expect(detailOf(refused.body)).toContain('nothing was charged');
    }
    const refusedAwaiting = await t.client.refund(awaiting.TransactionNumber);
    expect(codeOf(refusedAwaiting.body)).toBe('nothing_to_refund');
    expect(detailOf(refusedAwaiting.body)).toContain('awaits your commit');

    const timingOut = await t.client.init({ amount: 500, isCent: true, currency: 'USD', timeOut: 60 });
    await t.client.advanceClock(120);
    expect((await t.client.get(timingOut.body.TransactionNumber)).body.status).toBe(Status.TimedOut);
    expect(codeOf((await t.client.refund(timingOut.body.TransactionNumber)).body)).toBe('nothing_to_refund');
  });
});

describe('who may refund', () => {
  it("a device or a client ID is refused (403); another merchant's or branch's transaction is not found (404)", async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 800);
    const byDevice = await t.app.request(`/transactions/${transactionNumber}/refund`, { headers: bearer(t.merchant.deviceId), body: {} });
    expect(byDevice.status).toBe(403);
    expect(codeOf(await byDevice.json())).toBe('credential_not_allowed');
    const byClient = await t.app.request(`/transactions/${transactionNumber}/refund`, { headers: bearer(t.merchant.clientId), body: {} });
    expect(byClient.status).toBe(403);
    expect(codeOf(await byClient.json())).toBe('client_id_not_allowed');

    const other = await provisionTestMerchant(t.database.db, 'Other Shop');
    const otherBranch = await addBranch(t.database.db, t.merchant.merchantId);
    // Everything (the row read first) or an amount (the reservation finds the row by number, in the caller's scope).
    for (const body of [{}, { amount: 100 }]) {
      const stranger = await merchantClient(t.app, other).refund(transactionNumber, body);
      expect(stranger.status).toBe(404);
      const byOtherBranch = await merchantClient(t.app, t.merchant, otherBranch.branchApiKey).refund(transactionNumber, body);
      expect(byOtherBranch.status).toBe(404);
    }
    expect((await t.client.get(transactionNumber)).body).toMatchObject({ status: Status.Approved, refunds: [] });

    // A branch key refunds its own branch's sales.
    const branchClient = merchantClient(t.app, t.merchant, otherBranch.branchApiKey);
    const branchSale = await paidSale(t.app, branchClient, 600);
    const byBranch = await branchClient.refund(branchSale.transactionNumber, { amount: 100 });
    expect(byBranch.status).toBe(200);
    expect(byBranch.body.transaction).toMatchObject({ status: Status.PartiallyRefunded, refundedCents: 100 });
  });

  it('a sale recorded without the method it was paid with: 409 nothing_to_refund (refund it with the acquirer), and nothing changes', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 800);
    await t.database.sql`update transactions set processor_reference = null where transaction_number = ${transactionNumber}`;
    const before = (await t.client.get(transactionNumber)).body;
    for (const body of [{}, { amount: 100 }]) {
      const refused = await t.client.refund(transactionNumber, body);
      expect(refused.status).toBe(409);
      expect(codeOf(refused.body)).toBe('nothing_to_refund');
      expect(detailOf(refused.body)).toContain('No payment method was recorded');
    }
    expect((await t.client.get(transactionNumber)).body).toEqual(before);
  });

  it('a bad amount, reason or description is a 400 validation_failed', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 800);
    for (const body of [{ amount: 0 }, { amount: 1.5 }, { reason: 'because' }, { description: 'x'.repeat(501) }, { extra: true }]) {
      const refused = await t.client.call('POST', `/transactions/${transactionNumber}/refund`, body);
      expect(refused.status).toBe(400);
      expect(codeOf(refused.body)).toBe('validation_failed');
    }
  });
});
