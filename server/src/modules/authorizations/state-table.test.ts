import { Status, type Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { provisionTestMerchant } from '../../test/fixtures';
import { authorizedHold, BETA_CARD, codeOf, consumerPays, merchantClient, TEST_CARD } from '../../test/merchant-client';
import { useTestApp } from '../../test/harness';

const t = useTestApp({ merchantName: 'State Table Shop' });

const HOLD_S = 7 * 24 * 3600;
const detailOf = (body: unknown) => (body as { detail: string }).detail;
const counters = (t: Transaction) => {
  const a = t.authorization!;
  return [a.authorizedCents, a.capturedCents, a.releasedCents, a.availableCents];
};

async function eventsOf(transactionNumber: string) {
  return t.database.sql<{ sequence: number; payload: Transaction }[]>`
    select e.sequence, e.payload::json as payload from transaction_events e join transactions t on t.id = e.transaction_id
    where t.transaction_number = ${transactionNumber} order by e.sequence`;
}

describe("the spec's state table", () => {
  it('authorization being created → consumer pays → Authorized, token in the status query and the event', async () => {
    const created = await t.client.init({ amount: 50, currency: 'USD', methodType: 'Authorize' });
    expect(created.body.status).toBe(Status.Pending);
    expect(created.body.authorization).toBeNull();
    const paid = await consumerPays(t.app, created.body, TEST_CARD);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: Status.Authorized, statusName: 'Authorized', lastFourDigits: '4242' });
    expect(JSON.stringify(paid.body)).not.toMatch(/auth_/); // the consumer never sees the token

    const status = (await t.client.get(created.body.TransactionNumber)).body;
    expect(status).toMatchObject({ status: Status.Authorized, statusName: 'Authorized', balance: 50, sequence: 2 });
    expect(status.paymentDetails).toEqual({ type: 'authorization', token: expect.stringMatching(/^auth_[A-Za-z0-9]{32}$/) });
    expect(status.authorization).toMatchObject({ status: 'active', authorizedCents: 5000, availableCents: 5000, processor: 'alpha', supportsCloseAuth: true });
    expect(status.confirmation).toMatchObject({ lastFourDigits: '4242', paymentMethodName: 'Visa', approvedBy: 'alpha' });
    const events = await eventsOf(created.body.TransactionNumber);
    expect(events.map((e) => e.sequence)).toEqual([1, 2]);
    expect(events[1]!.payload.paymentDetails).toEqual(status.paymentDetails);
    expect(JSON.stringify(events)).not.toContain('4242424242424242');
  });

  it('authorization active → pay with the token, partial captures until the hold is used up (6, then 7)', async () => {
    const hold = await authorizedHold(t.app, t.client, 1000);
    const first = await t.client.pay({ token: hold.token, amount: 300 });
    expect(first.status).toBe(200);
    expect(first.body.payment).toMatchObject({ amountCents: 300, status: 'succeeded' });
    expect(first.body.transaction).toMatchObject({ status: Status.PartiallyCaptured, statusName: 'PartiallyCaptured', balance: 7 });
    expect(counters(first.body.transaction)).toEqual([1000, 300, 0, 700]);
    const second = await t.client.pay({ token: hold.token, amount: 700, currency: 'USD' });
    expect(second.body.transaction).toMatchObject({ status: Status.Captured, statusName: 'Captured', balance: 0 });
    expect(second.body.transaction.authorization!.status).toBe('captured');
    expect(second.body.transaction.payments.map((p) => p.amountCents)).toEqual([300, 700]);
    const more = await t.client.pay({ token: hold.token, amount: 1 });
    expect(more.status).toBe(409);
    expect(codeOf(more.body)).toBe('authorization_not_active');
  });

  it('a single capture may take the full amount at once', async () => {
    const hold = await authorizedHold(t.app, t.client, 999);
    const all = await t.client.pay({ token: hold.token, amount: 999 });
    expect(all.body.transaction.status).toBe(Status.Captured);
  });

  it('authorization active → void releases the hold; captures already made are not refunded', async () => {
    const hold = await authorizedHold(t.app, t.client, 1000);
    await t.client.pay({ token: hold.token, amount: 250 });
    const voided = await t.client.void({ token: hold.token });
    expect(voided.body).toMatchObject({ status: Status.Voided, statusName: 'Voided' });
    expect(voided.body.authorization!.status).toBe('voided');
    expect(counters(voided.body)).toEqual([1000, 250, 750, 0]);
    expect(voided.body.payments).toHaveLength(1);
    const byNumber = await authorizedHold(t.app, t.client, 400);
    expect((await t.client.void({ transactionNumber: byNumber.transactionNumber })).body.status).toBe(Status.Voided);
  });

  it('authorization active → authorize with the same token places a new hold', async () => {
    const hold = await authorizedHold(t.app, t.client, 1000);
    await t.client.pay({ token: hold.token, amount: 400 });
    const renewed = await t.client.authorize({ token: hold.token, amount: 2500 });
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({ status: Status.Authorized, statusName: 'Authorized' });
    // What the old hold still held (600) is released; captures count against the new hold from now on.
    expect(counters(renewed.body)).toEqual([3500, 400, 600, 2500]);
    const capture = await t.client.pay({ token: hold.token, amount: 2500 });
    expect(capture.body.transaction.status).toBe(Status.Captured);
  });

  it('an authorization created without an amount gets its first hold from authorize', async () => {
    const created = await t.client.init({ currency: 'EUR', methodType: 'authorize' });
    await consumerPays(t.app, created.body, TEST_CARD);
    const verified = (await t.client.get(created.body.TransactionNumber)).body;
    expect(verified).toMatchObject({ status: Status.Authorized, amountCents: null });
    expect(counters(verified)).toEqual([0, 0, 0, 0]);
    const token = verified.paymentDetails!.token;
    expect(codeOf((await t.client.pay({ token, amount: 1 })).body)).toBe('amount_exceeds_available');
    const held = await t.client.authorize({ token, amount: 4200 });
    expect(counters(held.body)).toEqual([4200, 0, 0, 4200]);
    expect((await t.client.pay({ token, amount: 4200 })).body.transaction.status).toBe(Status.Captured);
  });

  it('authorization active with a payment → closeAuth releases the remainder', async () => {
    const hold = await authorizedHold(t.app, t.client, 1000);
    await t.client.pay({ token: hold.token, amount: 100 });
    const closed = await t.client.closeAuth(hold.transactionNumber);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: Status.AuthorizationClosed, statusName: 'AuthorizationClosed', balance: 0 });
    expect(counters(closed.body)).toEqual([1000, 100, 900, 0]);
  });

  it('awaiting payment → time elapses → TimedOut (3), and the link no longer takes a payment', async () => {
    const created = await t.client.init({ amount: 5, currency: 'USD', timeOut: 600 });
    await t.client.advanceClock(599);
    expect((await t.client.get(created.body.TransactionNumber)).body.status).toBe(Status.Pending);
    await t.client.advanceClock(2);
    const timedOut = (await t.client.get(created.body.TransactionNumber)).body;
    expect(timedOut).toMatchObject({ status: Status.TimedOut, statusName: 'TimedOut', sequence: 2 });
    const late = await consumerPays(t.app, created.body, TEST_CARD);
    expect(late.status).toBe(409);
    expect(codeOf(late.body)).toBe('transaction_not_payable');
  });

  it('a hold expires after AUTHORIZATION_HOLD_S: Expired (11), released, and re-authorization revives it', async () => {
    const hold = await authorizedHold(t.app, t.client, 800);
    await t.client.pay({ token: hold.token, amount: 300 });
    await t.client.advanceClock(HOLD_S + 1);
    const expired = (await t.client.get(hold.transactionNumber)).body;
    expect(expired).toMatchObject({ status: Status.Expired, statusName: 'Expired' });
    expect(counters(expired)).toEqual([800, 300, 500, 0]);
    expect(codeOf((await t.client.pay({ token: hold.token, amount: 1 })).body)).toBe('authorization_not_active');
    expect(codeOf((await t.client.void({ token: hold.token })).body)).toBe('authorization_not_active');
    const revived = await t.client.authorize({ token: hold.token, amount: 100 });
    expect(revived.body.status).toBe(Status.Authorized);
    expect(counters(revived.body)).toEqual([900, 300, 500, 100]);
  });

  it('a sale paid by the consumer is Approved (0) with a succeeded payment', async () => {
    const created = await t.client.init({ amount: 20, currency: 'USD' });
    const paid = await consumerPays(t.app, created.body, { method: 'paypal' });
    expect(paid.body.status).toBe(Status.Approved);
    const status = (await t.client.get(created.body.TransactionNumber)).body;
    expect(status).toMatchObject({ status: Status.Approved, statusName: 'Approved', paymentMethodData: { PaymentType: 'paypal' }, authorization: null });
    expect(status.payments).toMatchObject([{ amountCents: 2000, status: 'succeeded' }]);
  });
});

describe('refusals (docs/integrating.md#lifecycle-rules)', () => {
  it('closeAuth without a successful payment: no_successful_payment, and the detail says to use void', async () => {
    const hold = await authorizedHold(t.app, t.client, 500);
    const refused = await t.client.closeAuth(hold.transactionNumber);
    expect(refused.status).toBe(409);
    expect(codeOf(refused.body)).toBe('no_successful_payment');
    expect(detailOf(refused.body)).toMatch(/\/transactions\/void/);
  });

  it('closeAuth on a sale: not_an_authorization', async () => {
    const sale = await t.client.init({ amount: 5, currency: 'USD' });
    expect(codeOf((await t.client.closeAuth(sale.body.TransactionNumber)).body)).toBe('not_an_authorization');
    expect(codeOf((await t.client.void({ transactionNumber: sale.body.TransactionNumber })).body)).toBe('not_an_authorization');
  });

  it('closeAuth when everything was captured: nothing_to_release', async () => {
    const hold = await authorizedHold(t.app, t.client, 500);
    await t.client.pay({ token: hold.token, amount: 500 });
    expect(codeOf((await t.client.closeAuth(hold.transactionNumber)).body)).toBe('nothing_to_release');
  });

  it('closeAuth on processor beta: close_auth_unsupported', async () => {
    const hold = await authorizedHold(t.app, t.client, 500, BETA_CARD);
    expect(hold.transaction.authorization).toMatchObject({ processor: 'beta', supportsCloseAuth: false });
    await t.client.pay({ token: hold.token, amount: 100 });
    const refused = await t.client.closeAuth(hold.transactionNumber);
    expect(codeOf(refused.body)).toBe('close_auth_unsupported');
  });

  it('closeAuth, void and capture on a voided or closed authorization: authorization_not_active', async () => {
    const hold = await authorizedHold(t.app, t.client, 500);
    await t.client.pay({ token: hold.token, amount: 100 });
    await t.client.closeAuth(hold.transactionNumber);
    for (const attempt of [t.client.closeAuth(hold.transactionNumber), t.client.void({ token: hold.token }), t.client.pay({ token: hold.token, amount: 1 })]) {
      const res = await attempt;
      expect(res.status).toBe(409);
      expect(codeOf(res.body)).toBe('authorization_not_active');
    }
    expect(codeOf((await t.client.authorize({ token: hold.token, amount: 100 })).body)).toBe('authorization_not_active');
  });

  it('capture above what is available: amount_exceeds_available, naming what is left', async () => {
    const hold = await authorizedHold(t.app, t.client, 500);
    const refused = await t.client.pay({ token: hold.token, amount: 501 });
    expect(refused.status).toBe(409);
    expect(codeOf(refused.body)).toBe('amount_exceeds_available');
    expect(detailOf(refused.body)).toMatch(/500 cents/);
  });

  it('capture in another currency: currency_mismatch', async () => {
    const hold = await authorizedHold(t.app, t.client, 500);
    expect(codeOf((await t.client.pay({ token: hold.token, amount: 1, currency: 'EUR' })).body)).toBe('currency_mismatch');
  });

  it("an unknown token, or another merchant's: 404", async () => {
    const hold = await authorizedHold(t.app, t.client, 500);
    expect((await t.client.pay({ token: 'auth_doesnotexist', amount: 1 })).status).toBe(404);
    const stranger = merchantClient(t.app, await provisionTestMerchant(t.database.db));
    for (const res of [
      await stranger.pay({ token: hold.token, amount: 1 }),
      await stranger.void({ token: hold.token }),
      await stranger.authorize({ token: hold.token, amount: 1 }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await stranger.closeAuth(hold.transactionNumber)).status).toBe(404);
    expect((await t.client.get(hold.transactionNumber)).body.authorization!.capturedCents).toBe(0);
  });

  it('amounts that are not integer cents above 0: 400 validation_failed', async () => {
    const hold = await authorizedHold(t.app, t.client, 500);
    for (const amount of [0, -1, 1.5, '100']) {
      const res = await t.client.pay({ token: hold.token, amount: amount as number });
      expect(res.status).toBe(400);
      expect((res.body as unknown as { errors: { path: string }[] }).errors[0]!.path).toBe('amount');
    }
    expect((await t.client.void({})).status).toBe(400);
    expect((await t.client.void({ token: hold.token, transactionNumber: hold.transactionNumber })).status).toBe(400);
  });

  it('a device cannot capture: credential_not_allowed', async () => {
    const hold = await authorizedHold(t.app, t.client, 500);
    const device = merchantClient(t.app, t.merchant, t.merchant.deviceId);
    const res = await device.pay({ token: hold.token, amount: 1 });
    expect(res.status).toBe(403);
    expect(codeOf(res.body)).toBe('credential_not_allowed');
  });
});
