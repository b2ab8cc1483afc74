import { Status, type SdkSession, type Transaction } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { insertTokenizedMethod, provisionTestMerchant } from '../../test/fixtures';
import { UNTHROTTLED } from '../../test/harness';
import { codeOf, consumerPays, type MerchantClient, merchantClient } from '../../test/merchant-client';
import { RecordingProcessor } from '../../test/recording-processor';
import { PROCESSOR_OPERATIONS } from '../../processor-operations';
import { finishAbandonedProcessorRequests, PROCESSOR_LEASE_MS } from '.';
import { CONSUMER_PAYMENT_STALE_S } from '../transactions/sql';

/**
 * Issue 14, review of finding 9: a payment only its request can make (card, wallet, token charge) that the processor
 * does not answer, or whose approval cannot be recorded, is reversed at the processor by its request key; the caller
 * is told nothing was charged, and a retry (with the same Idempotency-Key too) pays once. Before, the key was freed
 * with nothing asked of the processor: a retry could charge twice, and an approval that could not be recorded was lost.
 */
const SHOP = 'https://shop.example.com';
const TIMEOUT_MS = 300;
const processor = new RecordingProcessor();
let database: TestDatabase;
let app: TestApp;
/** A second instance on the same database, processor and clock, whose processor calls may take up to 20 s: slow, not unanswered. */
let slow: TestApp;
let client: MerchantClient;
let merchantId: string;
let clientId: string;
let merchantApiKey: string;
const apiKey = () => merchantApiKey;

beforeAll(async () => {
  database = await createTestDatabase({ max: 10 });
  app = await startTestApp(database, { env: { ...UNTHROTTLED, PROCESSOR_TIMEOUT_MS: String(TIMEOUT_MS) }, processor });
  const merchant = await provisionTestMerchant(database.db, 'Reversal Shop', [SHOP]);
  client = merchantClient(app, merchant);
  merchantId = merchant.merchantId;
  clientId = merchant.clientId;
  merchantApiKey = merchant.apiKey;
  slow = await startTestApp(database, { env: { ...UNTHROTTLED, PROCESSOR_TIMEOUT_MS: '20000' }, processor, clock: app.clock });
});

afterAll(async () => {
  await slow?.close();
  await app?.close();
  await database?.drop();
});

const detailOf = (body: unknown) => (body as { detail?: string }).detail ?? '';

async function requestsOf(operation: string) {
  return database.sql<{ requestKey: string; state: string; outcome: string | null; attempts: number; idempotencyKey: string | null }[]>`
    select request_key as "requestKey", state, outcome, attempts, idempotency_key as "idempotencyKey"
    from processor_requests where merchant_id = ${merchantId} and operation = ${operation} order by created_at`;
}

async function linkBooks(transactionNumber: string) {
  const [row] = await database.sql<{ status: number; inFlight: boolean; payments: number }[]>`
    select t.status, t.consumer_payment_since is not null as "inFlight",
      (select count(*) from payments p where p.transaction_id = t.id)::int as payments
    from transactions t where t.transaction_number = ${transactionNumber}`;
  return row!;
}

/** A tokenization token of this merchant, as the SDK's tokenize flow issues it. */
function tokenizedMethod(name: string): Promise<string> {
  return insertTokenizedMethod(database.db, merchantId, name);
}

/** The consumer pays the link through the slow instance; resolves once the sale is at the processor, its answer held. */
async function linkPaymentHeld(transaction: Pick<Transaction, 'transactionPage'>) {
  const gate = processor.holdAnswers();
  const before = processor.sales;
  const paying = consumerPays(slow, transaction);
  await processor.salesCalled(before + 1);
  return { gate, paying };
}

/** The worker of a later start of the service, `leases` leases from now: past every lease taken so far. */
function workerRun(leases = 10): Promise<number> {
  const later = new Date(app.clock.now().getTime() + leases * PROCESSOR_LEASE_MS);
  return finishAbandonedProcessorRequests({ db: database.db, processor, clock: app.clock, logger: app.logger, env: app.env }, PROCESSOR_OPERATIONS, later);
}

describe('a token charge the processor does not answer', () => {
  it('is reversed by its request key, answers that nothing was charged, and a retry with the same key charges once', async () => {
    const token = await tokenizedMethod('unanswered');
    const gate = processor.holdAnswers();
    const first = await client.pay({ token, amount: 4_000, currency: 'USD' }, { 'idempotency-key': 'charge-1' });
    gate.passNewCalls();
    expect(first.status).toBe(502);
    expect(codeOf(first.body)).toBe('processor_failure');
    expect(detailOf(first.body)).toMatch(/nothing was charged/);
    const [request] = await requestsOf('charge_token');
    expect(request).toMatchObject({ state: 'done', outcome: 'reversed' });
    expect(processor.reversed).toContain(request!.requestKey);

    const retry = await client.pay({ token, amount: 4_000, currency: 'USD' }, { 'idempotency-key': 'charge-1' });
    expect(retry.status).toBe(200);
    expect(retry.body.transaction).toMatchObject({ status: Status.Approved, amountCents: 4_000 });
    gate.answer();
    const sales = await database.sql<{ count: number }[]>`
      select count(*)::int as count from transactions where merchant_id = ${merchantId} and method_type = 'sale' and amount_cents = 4000`;
    expect(sales[0]!.count).toBe(1);
  });
});

describe('an Idempotency-Key that expired and was taken again while its first payment waited for its reversal', () => {
  it("is the new request's: the old payment's reversal neither frees it nor answers under it", async () => {
    const token = await tokenizedMethod('rekeyed');
    processor.unreachable = true;
    expect((await client.pay({ token, amount: 1_111, currency: 'USD' }, { 'idempotency-key': 'rekeyed' })).status).toBe(502);
    processor.unreachable = false;
    await database.sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = 'rekeyed'`;
    const gate = processor.holdAnswers();
    const charges = processor.tokenCharges;
    const second = merchantClient(slow, { apiKey: apiKey() }).pay({ token, amount: 1_111, currency: 'USD' }, { 'idempotency-key': 'rekeyed' });
    await processor.tokenChargesCalled(charges + 1);
    // The worker takes the first payment over (its lease ended; the second's has not) and reverses it.
    await database.sql`update processor_requests set lease_expires_at = lease_expires_at - interval '1 hour' where idempotency_key like '%rekeyed' and state = 'in_flight' and attempts = 2`;
    expect(await workerRun(0)).toBe(1);
    const [key] = await database.sql<{ status: number | null }[]>`select response_status as status from idempotency_keys where key = 'rekeyed'`;
    expect(key).toEqual({ status: null }); // still the second request's, in flight
    expect((await client.pay({ token, amount: 1_111, currency: 'USD' }, { 'idempotency-key': 'rekeyed' })).status).toBe(409);
    gate.answer();
    expect((await second).status).toBe(200);
    const replay = await client.pay({ token, amount: 1_111, currency: 'USD' }, { 'idempotency-key': 'rekeyed' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('a link payment the processor does not answer', () => {
  it('is reversed, and the link is payable again; the late approval is not recorded', async () => {
    const created = await client.init({ amount: 2_500, isCent: true, currency: 'USD' });
    const gate = processor.holdAnswers();
    const unanswered = await consumerPays(app, created.body);
    gate.passNewCalls();
    expect(unanswered.status).toBe(502);
    expect(detailOf(unanswered.body)).toMatch(/nothing was charged/);
    expect(await linkBooks(created.body.TransactionNumber)).toMatchObject({ status: Status.Pending, inFlight: false, payments: 0 });
    const sale = (await requestsOf('sale')).at(-1)!;
    expect(sale).toMatchObject({ state: 'done', outcome: 'reversed' });
    expect(processor.reversed).toContain(sale.requestKey);

    gate.answer(); // the held call answers now: nobody records it
    const paid = await consumerPays(app, created.body);
    expect(paid.status).toBe(200);
    expect(await linkBooks(created.body.TransactionNumber)).toMatchObject({ status: Status.Approved, payments: 1 });
  });

  it('when the reversal is not answered either, stays in flight (409 meanwhile) until the worker reverses it', async () => {
    const created = await client.init({ amount: 3_300, isCent: true, currency: 'USD' });
    processor.unreachable = true;
    const down = await app.request(`/pay/${created.body.transactionPage.qrURL.split('/pay/')[1]}`, {
      headers: { 'idempotency-key': 'link-down' },
      body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' } },
    });
    expect(down.status).toBe(502);
    expect(detailOf(await down.json())).toMatch(/being cancelled/);
    expect(await linkBooks(created.body.TransactionNumber)).toMatchObject({ status: Status.Pending, inFlight: true, payments: 0 });
    expect((await consumerPays(app, created.body)).status).toBe(409);
    expect((await client.cancel(created.body.TransactionNumber)).status).toBe(409);

    // The worker, while the acquirer is still down, notes why and leaves it in flight.
    expect(await workerRun(10)).toBe(0);
    processor.unreachable = false;
    // Attempts so far: the payment, the request's own reversal, the worker's; the next waits four leases.
    expect(await workerRun(13)).toBe(0);
    expect(await workerRun(15)).toBe(1);
    const sale = (await requestsOf('sale')).at(-1)!;
    expect(sale).toMatchObject({ state: 'done', outcome: 'reversed', attempts: 4 });
    expect(processor.reversed).toContain(sale.requestKey);
    expect(await linkBooks(created.body.TransactionNumber)).toMatchObject({ status: Status.Pending, inFlight: false, payments: 0 });
    expect((await client.cancel(created.body.TransactionNumber)).status).toBe(200);
  });

  it('taken over by the worker while the request still waits: the approval that comes late is not recorded', async () => {
    const created = await client.init({ amount: 1_700, isCent: true, currency: 'USD' });
    // Slow, not unanswered: a timeout long enough for the worker to claim the request first.
    const { gate, paying } = await linkPaymentHeld(created.body);
    expect(await workerRun()).toBe(1);
    gate.answer();
    const answered = await paying;
    expect(answered.status).toBe(502);
    expect(detailOf(answered.body)).toMatch(/nothing was charged/);
    expect(await linkBooks(created.body.TransactionNumber)).toMatchObject({ status: Status.Pending, inFlight: false, payments: 0 });
    expect((await requestsOf('sale')).at(-1)).toMatchObject({ state: 'done', outcome: 'reversed', attempts: 2 });
  });

  it('approved but no longer the payment in flight (taken over as stale): reversed, not lost or recorded twice', async () => {
    const created = await client.init({ amount: 900, isCent: true, currency: 'USD' });
    const { gate, paying } = await linkPaymentHeld(created.body);
    // As a stale mark taken over by another payment would leave it: a different in-flight mark.
    await database.sql`update transactions set consumer_payment_since = clock_timestamp() + interval '1 second'
      where transaction_number = ${created.body.TransactionNumber}`;
    gate.answer();
    const answered = await paying;
    expect(answered.status).toBe(502);
    const sale = (await requestsOf('sale')).at(-1)!;
    expect(sale).toMatchObject({ state: 'done', outcome: 'reversed' });
    expect(processor.reversed).toContain(sale.requestKey);
    expect(await linkBooks(created.body.TransactionNumber)).toMatchObject({ status: Status.Pending, payments: 0 });
  });
});

describe('an approval that reaches its request while the worker is reversing the payment (the attempt fence)', () => {
  it('is not recorded for a link payment: the worker claimed it first, and the reversal stands', async () => {
    const created = await client.init({ amount: 2_600, isCent: true, currency: 'USD' });
    const { gate, paying } = await linkPaymentHeld(created.body);
    const reversal = processor.holdReversals();
    const asked = processor.reversed.length;
    const worker = workerRun();
    await processor.reversalsCalled(asked + 1); // claimed, and its reversal on the way
    gate.answer(); // the approval reaches the request now, before the reversal is recorded
    const answered = await paying;
    expect(answered.status).toBe(502);
    reversal.release();
    expect(await worker).toBe(1);
    expect(await linkBooks(created.body.TransactionNumber)).toMatchObject({ status: Status.Pending, inFlight: false, payments: 0 });
    expect((await requestsOf('sale')).at(-1)).toMatchObject({ state: 'done', outcome: 'reversed', attempts: 2 });
  });

  it('is not recorded for a token charge, which has no in-flight mark to refuse it', async () => {
    const token = await tokenizedMethod('fenced');
    const gate = processor.holdAnswers();
    const charges = processor.tokenCharges;
    const paying = merchantClient(slow, { apiKey: apiKey() }).pay({ token, amount: 777, currency: 'USD' });
    await processor.tokenChargesCalled(charges + 1);
    const reversal = processor.holdReversals();
    const asked = processor.reversed.length;
    const worker = workerRun();
    await processor.reversalsCalled(asked + 1);
    gate.answer();
    expect((await paying).status).toBe(502);
    reversal.release();
    expect(await worker).toBe(1);
    expect((await requestsOf('charge_token')).at(-1)).toMatchObject({ state: 'done', outcome: 'reversed', attempts: 2 });
    const sales = await database.sql`select 1 from transactions where merchant_id = ${merchantId} and method_type = 'sale' and amount_cents = 777`;
    expect(sales).toHaveLength(0);
  });
});

describe('a link payment whose reversal the processor does not answer', () => {
  it('keeps the link blocked past CONSUMER_PAYMENT_STALE_S: a second payment could charge twice', async () => {
    const created = await client.init({ amount: 4_400, isCent: true, currency: 'USD' });
    processor.unreachable = true;
    expect((await consumerPays(app, created.body)).status).toBe(502);
    processor.unreachable = false;
    await database.sql`update transactions set consumer_payment_since = clock_timestamp() - make_interval(secs => ${CONSUMER_PAYMENT_STALE_S + 1})
      where transaction_number = ${created.body.TransactionNumber}`;
    expect((await consumerPays(app, created.body)).status).toBe(409);
    expect((await client.cancel(created.body.TransactionNumber)).status).toBe(409);
    // Once the worker has reversed it, the link is free.
    expect(await workerRun()).toBe(1);
    expect((await consumerPays(app, created.body)).status).toBe(200);
  });

  it('set aside for review, and its approval arrives after all: reversed by the request then, never answered "nothing charged" unreversed', async () => {
    const created = await client.init({ amount: 5_100, isCent: true, currency: 'USD' });
    const { gate, paying } = await linkPaymentHeld(created.body);
    processor.unreachable = true; // the worker's reversals fail from now on
    expect(await workerRun()).toBe(0);
    const giveUp = Number(app.env.PROCESSOR_REQUEST_GIVE_UP_S) / (PROCESSOR_LEASE_MS / 1000) + 1;
    expect(await workerRun(giveUp)).toBe(0);
    const sale = (await requestsOf('sale')).at(-1)!;
    expect(sale).toMatchObject({ state: 'needs_review', attempts: 3 });
    processor.unreachable = false;
    gate.answer();
    const answered = await paying;
    expect(answered.status).toBe(502);
    expect(detailOf(answered.body)).toMatch(/nothing was charged/);
    expect(processor.reversed).toContain(sale.requestKey);
    expect((await requestsOf('sale')).at(-1)).toMatchObject({ state: 'done', outcome: 'reversed', attempts: 4 });
    expect(await linkBooks(created.body.TransactionNumber)).toMatchObject({ status: Status.Pending, inFlight: false, payments: 0 });
  });
});

describe('a widget payment the processor does not answer', () => {
  it('is reversed and creates no transaction; the session can pay again', async () => {
    const started = await app.request('/sdk/sessions', { headers: { origin: SHOP }, body: { clientId, methodType: 'manual_capture', mode: 'sandbox' } });
    const session = (await started.json()) as SdkSession;
    const pay = () =>
      app.request(`/sdk/sessions/${session.sessionId}/payments`, {
        headers: { authorization: `Bearer ${session.sessionToken}`, origin: new URL(app.env.PUBLIC_BASE_URL).origin, 'idempotency-key': 'widget-unanswered' },
        body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' }, amount: 800, currency: 'USD' },
      });
    const gate = processor.holdAnswers();
    const unanswered = await pay();
    gate.passNewCalls();
    expect(unanswered.status).toBe(502);
    const authorization = (await requestsOf('authorize')).at(-1)!;
    expect(authorization).toMatchObject({ state: 'done', outcome: 'reversed' });
    expect(processor.reversed).toContain(authorization.requestKey);
    const created = await database.sql`select 1 from transactions where sdk_session_id = ${session.sessionId}`;
    expect(created).toHaveLength(0);
    gate.answer();
    expect((await pay()).status).toBe(200);
  });
});
