import { Status, type CommitResponse, type SdkSession, type Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { holdBooks } from '../../test/fixtures';
import { codeOf, consumerPays } from '../../test/merchant-client';
import { RecordingProcessor } from '../../test/recording-processor';
import { holdTransactionRow, lockWaiters } from '../../test/row-lock';
import { reauthorizeHold } from '../authorizations/authorizations.queries';
import { PROCESSOR_OPERATIONS } from '../../processor-operations';
import { finishAbandonedProcessorRequests, PROCESSOR_LEASE_MS, startProcessorRequestWorker } from '.';
import { CONSUMER_PAYMENT_STALE_S } from '../transactions/sql';

/**
 * Finding 9 of issue 14: the processor is called after the change that asks for it commits, outside any lock, and
 * its outcome is recorded once, by the request or, after a crash, by the worker, with the same request key.
 */
const SHOP = 'https://shop.example.com';
const processor = new RecordingProcessor();
const t = useTestApp({
  env: { ...UNTHROTTLED, CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' },
  processor,
  poolMax: 10,
  merchantName: 'Slow Acquirer Shop',
  origins: [SHOP],
});

/** An active hold of `amountCents` whose updates are called back (the callbacks stay queued: no dispatcher runs here). */
async function hold(amountCents: number) {
  const created = await t.client.init({ amount: amountCents, isCent: true, currency: 'USD', methodType: 'authorize', callbackURL: 'http://127.0.0.1:9/hooks' });
  expect((await consumerPays(t.app, created.body)).status).toBe(200);
  const after = await t.client.get(created.body.TransactionNumber);
  return { transactionNumber: created.body.TransactionNumber, token: after.body.paymentDetails!.token };
}

const books = (transactionNumber: string) => holdBooks(t.database.sql, transactionNumber);

/** A later start of the service: its worker runs at once, with the clock past every lease taken so far. */
async function restartWorker(): Promise<void> {
  const later = { now: () => new Date(t.app.clock.now().getTime() + PROCESSOR_LEASE_MS + 1_000) };
  const worker = startProcessorRequestWorker({
    db: t.database.db,
    processor,
    clock: later,
    logger: t.app.logger,
    env: t.app.env,
    operations: PROCESSOR_OPERATIONS,
  });
  await worker.stop();
}

/** Resolves with the first `count` answers to settle (the others are still waiting). */
function firstSettled<T>(promises: Promise<T>[], count: number): Promise<T[]> {
  return new Promise((resolve) => {
    const settled: T[] = [];
    for (const promise of promises) {
      void promise.then((value) => {
        settled.push(value);
        if (settled.length === count) resolve(settled);
      });
    }
  });
}

describe('captures at a slow processor', () => {
  it('hold no lock on the transaction: the row can be locked while the call is in flight, and a void is told to wait for it', async () => {
    const { transactionNumber, token } = await hold(1_000);
    const gate = processor.holdAnswers();
    const calledBefore = processor.captures;
    const capture = t.client.pay({ token, amount: 300 });
    await processor.capturesCalled(calledBefore + 1);

    // Refused at once (55P03) if the capture's transaction still held the row while waiting for the processor.
    await t.database.sql.begin((sql) => sql`select id from transactions where transaction_number = ${transactionNumber} for update nowait`);
    // The void is refused, not answered 200 under a capture recorded after it.
    const refused = await t.client.void({ token });
    expect(refused.status).toBe(409);
    expect(codeOf(refused.body)).toBe('capture_in_flight');

    gate.answer();
    const captured = await capture;
    expect(captured.status).toBe(200);
    expect(captured.body.payment.amountCents).toBe(300);
    expect(captured.body.transaction).toMatchObject({
      status: Status.PartiallyCaptured,
      authorization: { capturedCents: 300, releasedCents: 0, availableCents: 700 },
    });
    // Retried once the capture is recorded, the void releases what it left.
    const voided = await t.client.void({ token });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ status: Status.Voided, authorization: { capturedCents: 300, releasedCents: 700, availableCents: 0 } });
    expect(await books(transactionNumber)).toMatchObject({ captured: 300, released: 700, pending: 0, payments: 1, requests: 0 });
    expect(processor.released.at(-1)!.amountCents).toBe(700);
  });

  it('a second capture while one is in flight gets only what the first left; together they never exceed the hold', async () => {
    const { transactionNumber, token } = await hold(1_000);
    const gate = processor.holdAnswers();
    const calledBefore = processor.captures;
    const first = t.client.pay({ token, amount: 600 });
    await processor.capturesCalled(calledBefore + 1);

    const tooMuch = await t.client.pay({ token, amount: 600 });
    expect(tooMuch.status).toBe(409);
    expect(codeOf(tooMuch.body)).toBe('amount_exceeds_available');
    const rest = t.client.pay({ token, amount: 400 });
    await processor.capturesCalled(calledBefore + 2);
    // Nothing is captured yet, and nothing is left to offer.
    expect((await t.client.get(transactionNumber)).body).toMatchObject({ status: Status.Authorized, authorization: { capturedCents: 0, availableCents: 0 } });

    gate.answer();
    expect((await first).status).toBe(200);
    expect((await rest).status).toBe(200);
    expect(await books(transactionNumber)).toMatchObject({ status: Status.Captured, captured: 1_000, released: 0, pending: 0, payments: 2 });
  });

  it('many concurrent captures against one hold, all at the processor at once, take at most the hold', async () => {
    const { transactionNumber, token } = await hold(1_000);
    const gate = processor.holdAnswers();
    const calledBefore = processor.captures;
    const answers = Array.from({ length: 12 }, () => t.client.pay({ token, amount: 300 }));
    // Three fit and go to the processor; the nine others are refused while those three are still in flight.
    const refused = await firstSettled(answers, 9);
    expect(refused.every((a) => a.status === 409 && codeOf(a.body) === 'amount_exceeds_available')).toBe(true);
    expect(processor.captures - calledBefore).toBe(3);
    gate.answer();
    const settled = await Promise.all(answers);
    expect(settled.filter((a) => a.status === 200)).toHaveLength(3);
    expect(processor.captures - calledBefore).toBe(3);
    expect(await books(transactionNumber)).toMatchObject({ status: Status.PartiallyCaptured, captured: 900, pending: 0, payments: 3 });
  });
});

describe('a re-authorization at a slow processor', () => {
  it('holds no lock: a void proceeds meanwhile, and the new hold it can no longer join is given back', async () => {
    const { transactionNumber, token } = await hold(1_000);
    const gate = processor.holdAnswers();
    const calledBefore = processor.reauthorizations;
    const renewing = t.client.authorize({ token, amount: 500 });
    await processor.reauthorizationsCalled(calledBefore + 1);

    await t.database.sql.begin((sql) => sql`select id from transactions where transaction_number = ${transactionNumber} for update nowait`);
    expect((await t.client.void({ token })).status).toBe(200);
    processor.released = [];
    gate.answer();
    const renewed = await renewing;
    expect(renewed.status).toBe(409);
    expect(codeOf(renewed.body)).toBe('authorization_not_active');
    expect(processor.released.map((r) => r.amountCents)).toEqual([500]);
    expect(await books(transactionNumber)).toMatchObject({ status: Status.Voided, captured: 0, released: 1_000, requests: 0 });
  });

  it('is refused while a capture is in flight: a decline of that capture would put its amount back on top of the new hold', async () => {
    const { transactionNumber, token } = await hold(1_000);
    const gate = processor.holdAnswers();
    const capturesBefore = processor.captures;
    const reauthorizationsBefore = processor.reauthorizations;
    const capturing = t.client.pay({ token, amount: 800 });
    await processor.capturesCalled(capturesBefore + 1);

    const renewed = await t.client.authorize({ token, amount: 500 });
    expect(renewed.status).toBe(409);
    expect(codeOf(renewed.body)).toBe('capture_in_flight');
    expect(processor.reauthorizations).toBe(reauthorizationsBefore);

    gate.answer();
    expect((await capturing).status).toBe(200);
    expect(await books(transactionNumber)).toMatchObject({ status: Status.PartiallyCaptured, captured: 800, released: 0, pending: 0 });
    expect((await t.client.authorize({ token, amount: 500 })).status).toBe(200);
  });

  it('racing a void being made: waits for it and is refused before the processor is asked, so no new hold is placed', async () => {
    const { transactionNumber, token } = await hold(1_000);
    const row = await holdTransactionRow(t.database.sql, transactionNumber);
    const reauthorizationsBefore = processor.reauthorizations;
    const voiding = t.client.void({ token });
    await lockWaiters(t.database.sql, 1);
    const renewing = t.client.authorize({ token, amount: 500 });
    // Behind the void for the row (or, had it not checked first, already at the processor).
    await lockWaiters(t.database.sql, 2, () => processor.reauthorizations > reauthorizationsBefore);
    processor.released = [];
    await row.release();
    expect((await voiding).status).toBe(200);
    const renewed = await renewing;
    expect(renewed.status).toBe(409);
    expect(codeOf(renewed.body)).toBe('authorization_not_active');
    expect(processor.reauthorizations).toBe(reauthorizationsBefore);
    expect(processor.released.map((r) => r.amountCents)).toEqual([1_000]);
    expect(await books(transactionNumber)).toMatchObject({ status: Status.Voided, released: 1_000, requests: 0 });
  });

  it('racing a capture being reserved: waits for it and is refused (capture_in_flight) before the processor is asked', async () => {
    const { transactionNumber, token } = await hold(1_000);
    const row = await holdTransactionRow(t.database.sql, transactionNumber);
    const gate = processor.holdAnswers();
    try {
      const capturesBefore = processor.captures;
      const reauthorizationsBefore = processor.reauthorizations;
      const capturing = t.client.pay({ token, amount: 800 });
      await lockWaiters(t.database.sql, 1);
      const renewing = t.client.authorize({ token, amount: 500 });
      await lockWaiters(t.database.sql, 2, () => processor.reauthorizations > reauthorizationsBefore);
      await row.release();
      await processor.capturesCalled(capturesBefore + 1);
      // Answered while the capture is still at the processor (or, had it not checked first, at the processor itself).
      await Promise.race([renewing, processor.reauthorizationsCalled(reauthorizationsBefore + 1)]);
      expect(processor.reauthorizations).toBe(reauthorizationsBefore);
      const renewed = await renewing;
      expect(renewed.status).toBe(409);
      expect(codeOf(renewed.body)).toBe('capture_in_flight');
      gate.answer();
      expect((await capturing).status).toBe(200);
      expect(await books(transactionNumber)).toMatchObject({ status: Status.PartiallyCaptured, captured: 800, released: 0, pending: 0, requests: 0 });
    } finally {
      gate.answer();
    }
  });

  it('whose outcome meets a capture started meanwhile does not join the books', async () => {
    const { transactionNumber } = await hold(1_000);
    const [row] = await t.database.sql<{ id: string }[]>`
      update transactions set capture_pending_cents = 800 where transaction_number = ${transactionNumber} returning id`;
    const now = t.app.clock.now();
    expect(await reauthorizeHold(t.database.db, row!.id, 500, new Date(now.getTime() + 3_600_000), now)).toBeNull();
    await t.database.sql`update transactions set capture_pending_cents = 0 where id = ${row!.id}`;
    expect(await reauthorizeHold(t.database.db, row!.id, 500, new Date(now.getTime() + 3_600_000), now)).not.toBeNull();
  });

  it('approved, adds its hold to the books, and gives back at the processor what the replaced hold still held', async () => {
    const { transactionNumber, token } = await hold(1_000);
    expect((await t.client.pay({ token, amount: 300 })).status).toBe(200);
    processor.released = [];
    const renewed = await t.client.authorize({ token, amount: 500 });
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({
      status: Status.Authorized,
      authorization: { authorizedCents: 1_500, capturedCents: 300, releasedCents: 700, availableCents: 500 },
    });
    expect(processor.released.map((r) => r.amountCents)).toEqual([700]);
    expect(await books(transactionNumber)).toMatchObject({ requests: 0 });
  });

  it('two at once: both holds are placed, the later replaces the earlier, and the earlier is given back at the processor', async () => {
    const { transactionNumber, token } = await hold(1_000);
    processor.released = [];
    const gate = processor.holdAnswers();
    const calledBefore = processor.reauthorizations;
    const both = [t.client.authorize({ token, amount: 400 }), t.client.authorize({ token, amount: 600 })];
    await processor.reauthorizationsCalled(calledBefore + 2);
    gate.answer();
    const answers = await Promise.all(both);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const after = (await t.client.get(transactionNumber)).body.authorization!;
    // What the processor holds now is what the books say is available: one of the two new holds.
    const placed = 1_000 + 400 + 600;
    const givenBack = processor.released.reduce((sum, r) => sum + r.amountCents, 0);
    expect([400, 600]).toContain(after.availableCents);
    expect(placed - givenBack).toBe(after.availableCents);
    expect(after).toMatchObject({ authorizedCents: 2_000, capturedCents: 0, releasedCents: 2_000 - after.availableCents });
    expect(await books(transactionNumber)).toMatchObject({ requests: 0 });
  });
});

describe('a crash between the processor call and recording its outcome', () => {
  it('is finished by the worker on restart, once: same request key, one capture, one callback, the answer replayed', async () => {
    const { transactionNumber, token } = await hold(1_000);
    const before = await books(transactionNumber);
    const gate = processor.holdAnswers();
    const calledBefore = processor.captures;
    const request = { token, amount: 250 };
    // Never answered: the app's connections are closed at the end of the file.
    const lost = t.client.pay(request, { 'idempotency-key': 'crash-then-restart' }).catch(() => null);
    await processor.capturesCalled(calledBefore + 1);
    // The process dies here: this call is never answered, and nothing after it runs.
    gate.passNewCalls();

    // Until the outcome is recorded, a retry under the key is told the request is still running.
    const retry = await t.client.pay(request, { 'idempotency-key': 'crash-then-restart' });
    expect(retry.status).toBe(409);
    expect(codeOf(retry.body)).toBe('idempotency_key_in_use');
    expect(await books(transactionNumber)).toMatchObject({ captured: 0, pending: 250, requests: 1 });

    const requestKey = processor.captureKeys[calledBefore]!;
    await restartWorker();
    expect(processor.captureKeys.filter((key) => key === requestKey)).toHaveLength(2);
    const after = await books(transactionNumber);
    expect(after).toMatchObject({ status: Status.PartiallyCaptured, captured: 250, pending: 0, payments: 1, requests: 0 });
    expect(after.callbacks - before.callbacks).toBe(1);

    const replay = await t.client.pay(request, { 'idempotency-key': 'crash-then-restart' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.payment.amountCents).toBe(250);
    expect(replay.body.transaction.authorization).toMatchObject({ capturedCents: 250, availableCents: 750 });

    // Nothing is left for a second restart to do.
    expect(
      await finishAbandonedProcessorRequests(
        { db: t.database.db, processor, clock: t.app.clock, logger: t.app.logger, env: t.app.env },
        PROCESSOR_OPERATIONS,
        new Date(t.app.clock.now().getTime() + 10 * PROCESSOR_LEASE_MS),
      ),
    ).toBe(0);
    expect(processor.captureKeys.filter((key) => key === requestKey)).toHaveLength(2);
    void lost;
  });

  it("a request answered after the worker took it over gets the worker's outcome: recorded once", async () => {
    const { transactionNumber, token } = await hold(1_000);
    const before = await books(transactionNumber);
    const gate = processor.holdAnswers();
    const calledBefore = processor.captures;
    const slow = t.client.pay({ token, amount: 100 }, { 'idempotency-key': 'slow-then-worker' });
    await processor.capturesCalled(calledBefore + 1);
    gate.passNewCalls();

    await restartWorker();
    gate.answer();
    const answered = await slow;
    expect(answered.status).toBe(200);
    const replay = await t.client.pay({ token, amount: 100 }, { 'idempotency-key': 'slow-then-worker' });
    expect(replay.body).toEqual(answered.body);
    const after = await books(transactionNumber);
    expect(after).toMatchObject({ captured: 100, pending: 0, payments: 1, requests: 0 });
    expect(after.callbacks - before.callbacks).toBe(1);
  });
});

describe('a consumer paying a link at a slow processor', () => {
  it('holds no lock; another payment and a cancel wait for the outcome, and a time-out reached meanwhile does not undo it', async () => {
    // Times out in 20 s; the clock moves 30 s while the sale is at the processor (less than PROCESSOR_LEASE_MS).
    const created = await t.client.init({ amount: 1_250, isCent: true, currency: 'USD', timeOut: 20 });
    const gate = processor.holdAnswers();
    const calledBefore = processor.sales;
    const paying = consumerPays(t.app, created.body);
    await processor.salesCalled(calledBefore + 1);

    await t.database.sql.begin((sql) => sql`select id from transactions where transaction_number = ${created.body.TransactionNumber} for update nowait`);
    const second = await consumerPays(t.app, created.body);
    expect(second.status).toBe(409);
    expect(codeOf(second.body)).toBe('transaction_not_payable');
    const cancel = await t.client.cancel(created.body.TransactionNumber);
    expect(cancel.status).toBe(409);
    expect(codeOf(cancel.body)).toBe('transaction_not_cancellable');
    await t.client.advanceClock(30);
    expect((await t.client.get(created.body.TransactionNumber)).body.status).toBe(Status.Pending);

    gate.answer();
    const paid = await paying;
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: Status.Approved, payable: false });
    expect(await books(created.body.TransactionNumber)).toMatchObject({ status: Status.Approved, payments: 1 });
  });

  it('is not taken over when the service clock moves past a processor lease: the approval is recorded, not lost', async () => {
    // The sandbox clock moves 11 minutes while the sale is at the processor; only wall-clock time can make an in-flight
    // payment stale (its process stopped), and the database's clock has not moved.
    const created = await t.client.init({ amount: 990, isCent: true, currency: 'USD' });
    const gate = processor.holdAnswers();
    const calledBefore = processor.sales;
    const paying = consumerPays(t.app, created.body);
    await processor.salesCalled(calledBefore + 1);

    await t.client.advanceClock(11 * 60);
    const cancel = await t.client.cancel(created.body.TransactionNumber);
    expect(cancel.status).toBe(409);
    expect(codeOf(cancel.body)).toBe('transaction_not_cancellable');
    const second = await consumerPays(t.app, created.body);
    expect(second.status).toBe(409);
    expect(codeOf(second.body)).toBe('transaction_not_payable');

    gate.answer();
    const paid = await paying;
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: Status.Approved, payable: false });
    expect(await books(created.body.TransactionNumber)).toMatchObject({ status: Status.Approved, payments: 1 });
  });

  it('a mark older than CONSUMER_PAYMENT_STALE_S of wall-clock time (its process stopped) no longer blocks the link', async () => {
    const created = await t.client.init({ amount: 330, isCent: true, currency: 'USD' });
    await t.database.sql`update transactions set consumer_payment_since = clock_timestamp() - make_interval(secs => ${CONSUMER_PAYMENT_STALE_S + 1})
      where transaction_number = ${created.body.TransactionNumber}`;
    expect((await t.client.cancel(created.body.TransactionNumber)).status).toBe(200);
  });
});

describe('a widget payment at a slow processor', () => {
  it('holds no database transaction open while the processor decides, and is created with its decision', async () => {
    const session = (await (
      await t.app.request('/sdk/sessions', {
        headers: { origin: SHOP },
        body: { clientId: t.merchant.clientId, methodType: 'manual_capture', mode: 'sandbox' },
      })
    ).json()) as SdkSession;
    const gate = processor.holdAnswers();
    const calledBefore = processor.authorizations;
    const paying = t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
      headers: { authorization: `Bearer ${session.sessionToken}`, origin: new URL(t.app.env.PUBLIC_BASE_URL).origin, 'idempotency-key': 'widget-slow' },
      body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' }, amount: 700, currency: 'USD' },
    });
    await processor.authorizationsCalled(calledBefore + 1);
    // Before, the request's transaction (and its Idempotency-Key lock) waited on the processor, idle in transaction.
    const [waiting] = await t.database.sql<{ count: number }[]>`
      select count(*)::int as count from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`;
    expect(waiting!.count).toBe(0);
    gate.answer();
    const paid = await paying;
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as Transaction).status).toBe(Status.AwaitingCommit);
  });
});

describe('a commit whose capture is at the processor', () => {
  async function awaitingCommit(amount: number): Promise<Transaction> {
    const session = (await (
      await t.app.request('/sdk/sessions', {
        headers: { origin: SHOP },
        body: { clientId: t.merchant.clientId, methodType: 'manual_capture', mode: 'sandbox' },
      })
    ).json()) as SdkSession;
    const paid = await t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
      headers: { authorization: `Bearer ${session.sessionToken}`, origin: new URL(t.app.env.PUBLIC_BASE_URL).origin },
      body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' }, amount, currency: 'USD' },
    });
    return (await paid.json()) as Transaction;
  }
  const commit = (transactionNumber: string, body: Record<string, unknown>) =>
    t.client.call<CommitResponse>('POST', `/transactions/${transactionNumber}/commit`, body);

  it('refuses a second commit, is not expired by its window meanwhile, and commits on approval', async () => {
    const transaction = await awaitingCommit(2_000);
    expect(transaction.status).toBe(Status.AwaitingCommit);
    const gate = processor.holdAnswers();
    const calledBefore = processor.captures;
    const first = commit(transaction.TransactionNumber, { amount: 1_500, currency: 'USD' });
    await processor.capturesCalled(calledBefore + 1);

    const second = await commit(transaction.TransactionNumber, { amount: 1_500, currency: 'USD' });
    expect(second.status).toBe(409);
    expect(codeOf(second.body)).toBe('not_awaiting_commit');
    // The window ends while the capture is at the processor: the sweep leaves the payment to its commit.
    await t.client.advanceClock(Number(t.app.env.COMMIT_WINDOW_S) + 1);
    expect((await t.client.get(transaction.TransactionNumber)).body.status).toBe(Status.AwaitingCommit);

    processor.released = [];
    gate.answer();
    const committed = await first;
    expect(committed.status).toBe(200);
    expect(committed.body).toMatchObject({ success: true, transactionStatus: Status.Approved });
    expect(await books(transaction.TransactionNumber)).toMatchObject({ status: Status.Approved, payments: 1, requests: 0 });
    // What the consumer approved beyond the commit is released, once the commit is recorded.
    expect(processor.released.map((r) => r.amountCents)).toEqual([500]);
  });
});
