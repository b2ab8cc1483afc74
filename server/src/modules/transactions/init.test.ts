import { Status, TransactionSchema, type Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { addBranch, provisionTestMerchant } from '../../test/fixtures';
import { useTestApp } from '../../test/harness';
import { merchantClient } from '../../test/merchant-client';

const t = useTestApp({ merchantName: 'Init Shop' });

type Problem = { code: string; errors?: { path: string; message: string }[] };
const errorPaths = (body: unknown) => ((body as Problem).errors ?? []).map((e) => e.path);

describe('POST /transactions/init', () => {
  it('answers the whole transaction object with every spec field, status 1', async () => {
    const res = await t.client.init({ amount: 12.34, currency: 'usd', pos: 'Till 3', posData: { orderId: 'A-17', lines: [1, 2] } });
    expect(res.status).toBe(200);
    const tx = TransactionSchema.strict().parse(res.body);
    expect(tx).toMatchObject({
      amount: 12.34,
      amountCents: 1234,
      currency: 'USD',
      status: Status.Pending,
      statusName: 'Pending',
      methodType: 'sale',
      pos: 'Till 3',
      posData: { orderId: 'A-17', lines: [1, 2] },
      businessName: 'Init Shop',
      SMS: 'Not requested',
      productSumMismatch: false,
      confirmations: [],
      confirmation: null,
      balance: 0,
      paymentDetails: null,
      authorization: null,
      payments: [],
      sequence: 1,
      timeoutDate: null,
    });
    expect(tx.TransactionNumber).toMatch(/^[0-9A-Z]{16}$/);
    expect(tx.transactionPage.iOSLink).toMatch(/^svcpay:\/\/pay\/[A-Za-z0-9_-]{32}$/);
    expect(tx.paymentMethodData.directAppLinks).toEqual(tx.transactionPage);
    expect(tx.posReceiptsEndpoint).toBe(`http://localhost:8080/transactions/${tx.TransactionNumber}/receipt`);
    expect((await t.client.get(tx.TransactionNumber)).body).toEqual(tx);
  });

  it('takes integer cents with isCent, major units with at most two decimals otherwise', async () => {
    expect((await t.client.init({ amount: 1250, isCent: true, currency: 'EUR' })).body).toMatchObject({ amount: 12.5, amountCents: 1250 });
    expect((await t.client.init({ amount: '19.99', currency: 'EUR' })).body).toMatchObject({ amountCents: 1999 });
    expect((await t.client.init({ amount: 0.29, currency: 'EUR' })).body).toMatchObject({ amountCents: 29 });
    const tooPrecise = await t.client.init({ amount: 10.005, currency: 'EUR' });
    expect(tooPrecise.status).toBe(400);
    expect(errorPaths(tooPrecise.body)).toEqual(['amount']);
    expect(errorPaths((await t.client.init({ amount: 12.5, isCent: true, currency: 'EUR' })).body)).toEqual(['amount']);
  });

  it('sums products as Σ (amount + vat − discount) × quantity, in the unit of the transaction', async () => {
    const products = [
      { name: 'Coffee', quantity: 2, amount: 3.5, vat: 0.5, discount: 0.25, posIdentifier: 'SKU-1' },
      { name: 'Cake', quantity: 1, amount: 4 },
    ];
    const summed = await t.client.init({ currency: 'USD', products });
    expect(summed.body).toMatchObject({ amountCents: 1150, productSumMismatch: false });
    expect(summed.body.products[0]).toEqual({ name: 'Coffee', quantity: 2, amount: 3.5, vat: 0.5, discount: 0.25, posIdentifier: 'SKU-1' });
    expect(summed.body.products[1]).toEqual({ name: 'Cake', quantity: 1, amount: 4, vat: null, discount: null, posIdentifier: null });

    const inCents = await t.client.init({ currency: 'USD', isCent: true, products: [{ name: 'Tea', quantity: 3, amount: 250, vat: 50 }] });
    expect(inCents.body).toMatchObject({ amountCents: 900 });

    const mismatch = await t.client.init({ amount: 20, currency: 'USD', products });
    expect(mismatch.status).toBe(200);
    expect(mismatch.body).toMatchObject({ amountCents: 2000, productSumMismatch: true });

    const matching = await t.client.init({ amount: 11.5, currency: 'USD', products });
    expect(matching.body.productSumMismatch).toBe(false);

    const nothing = await t.client.init({ currency: 'USD', products: [{ name: 'Free', quantity: 1, amount: 1, discount: 1 }] });
    expect(nothing.status).toBe(400);
    expect(errorPaths(nothing.body)).toEqual(['products']);
  });

  it('sums large products exactly: the sum is integer arithmetic, never floating point', async () => {
    // Each line is about 1e17 cents, beyond 2^53, where floating point can no longer count in cents.
    const products = [
      { name: 'Wholesale', quantity: 99_999, amount: 999_999_999_999 },
      { name: 'Rebate', quantity: 99_999, amount: 0, discount: 999_999_999_990 },
    ];
    const exact = 999_999_999_999n * 99_999n - 999_999_999_990n * 99_999n;
    const summed = await t.client.init({ currency: 'USD', isCent: true, products });
    expect(summed.status).toBe(200);
    expect(summed.body).toMatchObject({ amountCents: Number(exact), productSumMismatch: false });
    const stated = await t.client.init({ amount: Number(exact), currency: 'USD', isCent: true, products });
    expect(stated.body).toMatchObject({ amountCents: Number(exact), productSumMismatch: false });
    const offByOne = await t.client.init({ amount: Number(exact) + 1, currency: 'USD', isCent: true, products });
    expect(offByOne.body).toMatchObject({ productSumMismatch: true });
  });

  it('an amount above the maximum is refused as too large, not as "must be greater than 0"', async () => {
    for (const body of [
      { amount: 1_000_000_000_001, isCent: true, currency: 'USD' as const },
      { amount: 10_000_000_000.01, currency: 'USD' as const },
      { currency: 'USD' as const, isCent: true, products: [{ name: 'Huge', quantity: 1, amount: 1_000_000_000_001 }] },
    ]) {
      const res = await t.client.init(body);
      expect(res.status).toBe(400);
      const messages = ((res.body as unknown as Problem).errors ?? []).map((e) => e.message);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(/at most 1000000000000 cents/);
    }
  });

  it('accepts methodType Authorize in any letter case, and an authorization without an amount', async () => {
    for (const methodType of ['Authorize', 'AUTHORIZE', 'authorize']) {
      expect((await t.client.init({ amount: 5, currency: 'USD', methodType })).body.methodType).toBe('authorize');
    }
    const later = await t.client.init({ currency: 'USD', methodType: 'Authorize' });
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({ amount: null, amountCents: null, authorization: null });
    const saleWithout = await t.client.init({ currency: 'USD' });
    expect(saleWithout.status).toBe(400);
    expect(errorPaths(saleWithout.body)).toEqual(['amount']);
  });

  it('sets timeoutDate from timeOut seconds or takes it as given, and refuses one in the past', async () => {
    const clock = (await t.client.call<{ now: string }>('GET', '/sandbox/clock')).body;
    const relative = await t.client.init({ amount: 1, currency: 'USD', timeOut: 120 });
    const expected = new Date(clock.now).getTime() + 120_000;
    expect(Math.abs(new Date(relative.body.timeoutDate!).getTime() - expected)).toBeLessThan(5_000);

    const absolute = await t.client.init({ amount: 1, currency: 'USD', timeoutDate: '2099-01-02T03:04:05Z' });
    expect(absolute.body.timeoutDate).toBe('2099-01-02T03:04:05.000Z');

    const past = await t.client.init({ amount: 1, currency: 'USD', timeoutDate: '2001-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(errorPaths(past.body)).toEqual(['timeoutDate']);
  });

  it('sends the link by SMS and e-mail through the sandbox outbox', async () => {
    const res = await t.client.init({ amount: 7, currency: 'ILS', phone: '+972 50 123 4567', email: 'buyer@example.com' });
    expect(res.body.SMS).toBe('Sent');
    const outbox = await t.client.call<{ messages: { channel: string; to: string; body: string; transactionNumber: string }[] }>('GET', '/sandbox/messages');
    const mine = outbox.body.messages.filter((m) => m.transactionNumber === res.body.TransactionNumber);
    expect(mine.map((m) => m.channel).sort()).toEqual(['email', 'sms']);
    expect(mine[0]!.body).toContain(res.body.transactionPage.qrURL);
    // Another branch's key does not see this consumer's phone and e-mail.
    const { branchApiKey } = await addBranch(t.database.db, t.merchant.merchantId);
    const otherBranch = await merchantClient(t.app, t.merchant, branchApiKey).call<{ messages: { transactionNumber: string }[] }>('GET', '/sandbox/messages');
    expect(otherBranch.status).toBe(200);
    expect(otherBranch.body.messages.filter((m) => m.transactionNumber === res.body.TransactionNumber)).toEqual([]);
  });

  it('authenticates with a device ID in the body when there is no API key, and scopes the transaction to that device', async () => {
    const res = await t.app.request('/transactions/init', { body: { amount: 3, currency: 'USD', deviceId: t.merchant.deviceId } });
    expect(res.status).toBe(200);
    const tx = (await res.json()) as Transaction;
    const byDevice = await t.app.request(`/transactions/${tx.TransactionNumber}`, { headers: { authorization: `Bearer ${t.merchant.deviceId}` } });
    expect(byDevice.status).toBe(200);

    const noCredentials = await t.app.request('/transactions/init', { body: { amount: 3, currency: 'USD' } });
    expect(noCredentials.status).toBe(401);
    const bodyKey = await t.app.request('/transactions/init', { body: { amount: 3, currency: 'USD', apiKey: t.merchant.apiKey } });
    expect(bodyKey.status).toBe(200);
  });

  it("lets an API key send the transaction to one of its own devices, and refuses a stranger's", async () => {
    const own = await t.client.init({ amount: 3, currency: 'USD', deviceId: t.merchant.deviceId });
    expect(own.status).toBe(200);
    const other = await provisionTestMerchant(t.database.db);
    const foreign = await t.client.init({ amount: 3, currency: 'USD', deviceId: other.deviceId });
    expect(foreign.status).toBe(400);
    expect(errorPaths(foreign.body)).toEqual(['deviceId']);
  });

  it('validates every field: 400 validation_failed with errors[].path', async () => {
    const res = await t.client.init({
      amount: 'ten',
      currency: 'GBP',
      callbackURL: 'not a url',
      callbackMethod: 'PUT',
      methodType: 'refund',
      timeOut: -5,
      email: 'nobody',
      phone: 'call me',
      products: [{ name: '', quantity: 1.5, amount: 1 }],
    } as never);
    expect(res.status).toBe(400);
    expect((res.body as unknown as Problem).code).toBe('validation_failed');
    expect(errorPaths(res.body).sort()).toEqual(
      ['callbackMethod', 'callbackURL', 'currency', 'email', 'methodType', 'phone', 'products.0.name', 'products.0.quantity', 'timeOut'].sort(),
    );
    const unknown = await t.client.init({ amount: 1, currency: 'USD', amout: 2 } as never);
    expect(unknown.status).toBe(400);
    const count = await t.database.sql<
      { n: number }[]
    >`select count(*)::int as n from transactions where merchant_id = ${t.merchant.merchantId} and amount_cents is null and method_type = 'sale'`;
    expect(count[0]!.n).toBe(0);
  });

  it('refuses a callback URL with credentials in it', async () => {
    const res = await t.client.init({ amount: 1, currency: 'USD', callbackURL: 'https://user:pw@example.com/cb' });
    expect(res.status).toBe(400);
    expect((res.body as unknown as Problem).code).toBe('callback_url_not_allowed');
  });

  it('records a creation event with the object as created, sequence 1', async () => {
    const res = await t.client.init({ amount: 2, currency: 'CAD' });
    const events = await t.database.sql<{ sequence: number; type: string; payload: Transaction }[]>`
      select e.sequence, e.type, e.payload::json as payload from transaction_events e join transactions t on t.id = e.transaction_id
      where t.transaction_number = ${res.body.TransactionNumber}`;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ sequence: 1, type: 'transaction.created' });
    expect(events[0]!.payload).toEqual(res.body);
  });
});

describe('POST /transactions/:transactionNumber/cancel', () => {
  it('cancels a pending transaction once, and refuses anything else', async () => {
    const created = await t.client.init({ amount: 1, currency: 'USD' });
    const cancelled = await t.client.cancel(created.body.TransactionNumber);
    expect(cancelled.body).toMatchObject({ status: Status.Cancelled, statusName: 'Cancelled', sequence: 2 });
    const again = await t.client.cancel(created.body.TransactionNumber);
    expect(again.status).toBe(409);
    expect((again.body as unknown as Problem).code).toBe('transaction_not_cancellable');
    expect((await t.client.cancel('NOSUCHTRANSACTION')).status).toBe(404);
  });
});
