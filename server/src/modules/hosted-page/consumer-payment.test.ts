import { Status, type PaymentLinkState } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { cardNumbered, codeOf, consumerPays, TEST_CARD } from '../../test/merchant-client';
import { passesLuhn } from '../payments/card-validation';
import { useTestApp } from '../../test/harness';

const t = useTestApp({ merchantName: 'Link Shop' });

const linkOf = (qrURL: string) => qrURL.split('/pay/')[1]!;

describe('GET /pay/:linkId/state', () => {
  it('shows what the page needs and nothing secret', async () => {
    const created = await t.client.init({
      amount: 12.5,
      currency: 'EUR',
      methodType: 'authorize',
      posData: { internal: 'secret-note' },
      products: [{ name: 'Lamp', quantity: 1, amount: 12.5 }],
    });
    const res = await t.app.request(`/pay/${linkOf(created.body.transactionPage.qrURL)}/state`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const state = (await res.json()) as PaymentLinkState;
    expect(state).toMatchObject({ amount: 12.5, currency: 'EUR', businessName: 'Link Shop', status: Status.Pending, payable: true, lastFourDigits: null });
    expect(state.products).toHaveLength(1);
    expect(JSON.stringify(state)).not.toMatch(/secret-note|posData|merchantId/);
    await consumerPays(t.app, created.body, TEST_CARD);
    const after = (await (await t.app.request(`/pay/${linkOf(created.body.transactionPage.qrURL)}/state`)).json()) as PaymentLinkState;
    expect(after).toMatchObject({ status: Status.Authorized, payable: false, lastFourDigits: '4242' });
    expect(JSON.stringify(after)).not.toMatch(/auth_/);
  });

  it('answers 404 for an unknown link and 400 for a malformed one', async () => {
    expect((await t.app.request('/pay/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/state')).status).toBe(404);
    expect((await t.app.request('/pay/short/state')).status).toBe(400);
  });
});

describe('POST /pay/:linkId', () => {
  it.each([
    ['4000000000000002', 402, 'card_declined', Status.Declined],
    ['4000000000009995', 402, 'insufficient_funds', Status.Declined],
    ['4000000000000119', 502, 'processor_failure', Status.Failed],
  ])('card %s: %i %s, and the transaction moves to status %i (a decline may be retried, a failure not)', async (number, httpStatus, code, status) => {
    const created = await t.client.init({ amount: 9, currency: 'USD' });
    const paid = await consumerPays(t.app, created.body, cardNumbered(number));
    expect(paid.status).toBe(httpStatus);
    expect(codeOf(paid.body)).toBe(code);
    const after = (await t.client.get(created.body.TransactionNumber)).body;
    expect(after.status).toBe(status);
    expect(after.payments).toMatchObject([{ amountCents: 900, status: 'failed' }]);
    expect(after.sequence).toBe(2);
    const retry = await consumerPays(t.app, created.body, TEST_CARD);
    if (status === Status.Declined) {
      // A declined consumer may try again with another card: the link pays, and both attempts stay on record.
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ status: Status.Approved, payable: false, lastFourDigits: '4242' });
      const paid = (await t.client.get(created.body.TransactionNumber)).body;
      expect(paid.payments.map((p) => p.status)).toEqual(['failed', 'succeeded']);
      expect(paid.sequence).toBe(3);
    } else {
      expect(codeOf(retry.body)).toBe('transaction_not_payable');
    }
  });

  it.each([
    [{ number: '4242424242424241', expMonth: 12, expYear: 2099, cvc: '123' }, 'card.number'],
    [{ number: '4242', expMonth: 12, expYear: 2099, cvc: '123' }, 'card.number'],
    [{ number: '4242424242424242', expMonth: 1, expYear: 2020, cvc: '123' }, 'card.expYear'],
    [{ number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '1234' }, 'card.cvc'],
  ])('an unusable card %j: 400 invalid_card at %s, and the transaction stays payable', async (card, path) => {
    const created = await t.client.init({ amount: 9, currency: 'USD' });
    const paid = await consumerPays(t.app, created.body, { method: 'card', card });
    expect(paid.status).toBe(400);
    expect(codeOf(paid.body)).toBe('invalid_card');
    expect((paid.body as unknown as { errors: { path: string }[] }).errors[0]!.path).toBe(path);
    expect((await t.client.get(created.body.TransactionNumber)).body.status).toBe(Status.Pending);
  });

  it('refuses a malformed body with validation_failed, and a second payment with transaction_not_payable', async () => {
    const created = await t.client.init({ amount: 9, currency: 'USD' });
    const link = linkOf(created.body.transactionPage.qrURL);
    const bad = await t.app.request(`/pay/${link}`, { body: { method: 'bitcoin' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('validation_failed');
    expect((await consumerPays(t.app, created.body, { method: 'googlepay' })).status).toBe(200);
    expect(codeOf((await consumerPays(t.app, created.body, { method: 'googlepay' })).body)).toBe('transaction_not_payable');
    const cancelled = await t.client.init({ amount: 9, currency: 'USD' });
    await t.client.cancel(cancelled.body.TransactionNumber);
    expect(codeOf((await consumerPays(t.app, cancelled.body, TEST_CARD)).body)).toBe('transaction_not_payable');
  });

  it('refuses to pay an authorization created without an amount, as its page shows no form', async () => {
    const created = await t.client.init({ currency: 'EUR', methodType: 'authorize' });
    const link = linkOf(created.body.transactionPage.qrURL);
    const state = (await (await t.app.request(`/pay/${link}/state`)).json()) as PaymentLinkState;
    expect(state).toMatchObject({ amountCents: null, status: Status.Pending, payable: false });
    expect(await (await t.app.request(`/pay/${link}`)).text()).not.toContain('id="pay-button"');
    for (const body of [TEST_CARD, { method: 'paypal' as const }]) {
      const paid = await consumerPays(t.app, created.body, body);
      expect(paid.status).toBe(409);
      expect(codeOf(paid.body)).toBe('transaction_not_payable');
      expect((paid.body as unknown as { detail: string }).detail).toMatch(/amount/);
    }
    const after = (await t.client.get(created.body.TransactionNumber)).body;
    expect(after).toMatchObject({ status: Status.Pending, sequence: 1, paymentDetails: null, payments: [] });
    const [tokens] = await t.database.sql<{ n: number }[]>`
      select count(*)::int as n from payment_tokens p join transactions x on x.id = p.transaction_id where x.transaction_number = ${created.body.TransactionNumber}`;
    expect(tokens!.n).toBe(0);
  });

  it('a processor failure tells the consumer the payment is over, not to retry with the same Idempotency-Key', async () => {
    const created = await t.client.init({ amount: 9, currency: 'USD' });
    const failed = await consumerPays(t.app, created.body, cardNumbered('4000000000000119'));
    expect(failed.status).toBe(502);
    const detail = (failed.body as unknown as { detail: string }).detail;
    expect(detail).not.toMatch(/retry|Idempotency-Key/i);
    expect(detail).toMatch(/new payment link/);
  });

  it('two consumers paying one link at once: one payment, one refusal', async () => {
    const created = await t.client.init({ amount: 9, currency: 'USD' });
    const both = await Promise.all([consumerPays(t.app, created.body, TEST_CARD), consumerPays(t.app, created.body, { method: 'paypal' })]);
    expect(both.map((b) => b.status).sort()).toEqual([200, 409]);
    expect((await t.client.get(created.body.TransactionNumber)).body.payments).toHaveLength(1);
  });

  it('never stores or echoes the card number', async () => {
    const created = await t.client.init({ amount: 9, currency: 'USD', methodType: 'authorize' });
    const paid = await consumerPays(t.app, created.body, TEST_CARD);
    expect(JSON.stringify(paid.body)).not.toContain('4242424242424242');
    const dump = await t.database.sql<{ t: string }[]>`
      select concat_ws(' ', (select string_agg(row_to_json(x)::text, ' ') from transactions x),
        (select string_agg(row_to_json(y)::text, ' ') from payment_tokens y),
        (select string_agg(row_to_json(z)::text, ' ') from transaction_events z)) as t`;
    expect(dump[0]!.t).not.toMatch(/4242 ?4242 ?4242 ?4242/);
  });
});

describe('pay with a tokenization token', () => {
  it('charges a new sale in the given currency, and the token can be charged again', async () => {
    // The tokenize flow of the SDK issues such tokens; here one is written as it would.
    const origin = await t.client.init({ amount: 1, currency: 'USD', methodType: 'authorize' });
    const [row] = await t.database.sql<{ id: string }[]>`select id from transactions where transaction_number = ${origin.body.TransactionNumber}`;
    await t.database
      .sql`insert into payment_tokens (token, type, merchant_id, transaction_id, processor, processor_reference, payment_method, last_four_digits, created_at)
      values ('tok_testtesttesttesttesttesttesttest', 'token', ${t.merchant.merchantId}, ${row!.id}, 'alpha', 'sbx_alpha_feedface', 'card', '4242', now())`;
    const charged = await t.client.pay({ token: 'tok_testtesttesttesttesttesttesttest', amount: 1234, currency: 'ILS' });
    expect(charged.status).toBe(200);
    expect(charged.body.transaction).toMatchObject({ status: Status.Approved, methodType: 'sale', currency: 'ILS', amountCents: 1234 });
    expect(charged.body.transaction.TransactionNumber).not.toBe(origin.body.TransactionNumber);
    expect(charged.body.payment.amountCents).toBe(1234);
    const again = await t.client.pay({ token: 'tok_testtesttesttesttesttesttesttest', amount: 100, currency: 'ILS' });
    expect(again.status).toBe(200);
    const noCurrency = await t.client.pay({ token: 'tok_testtesttesttesttesttesttesttest', amount: 100 });
    expect(noCurrency.status).toBe(400);
  });
});

describe('passesLuhn', () => {
  it('accepts the test cards and rejects a changed digit', () => {
    for (const n of ['4242424242424242', '5555555555554444', '4000000000000002', '4000000000009995', '4000000000000119', '378282246310005'])
      expect(passesLuhn(n)).toBe(true);
    expect(passesLuhn('4242424242424243')).toBe(false);
  });
});
