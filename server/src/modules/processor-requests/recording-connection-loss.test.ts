import { Status } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { holdBooks } from '../../test/fixtures';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { authorizedHold, codeOf, consumerPays } from '../../test/merchant-client';
import { RecordingProcessor } from '../../test/recording-processor';
import { holdTransactionRow, lockWaiters, lockWaitingBackends } from '../../test/row-lock';
import { PROCESSOR_OPERATIONS } from '../../processor-operations';
import { finishAbandonedProcessorRequests, PROCESSOR_LEASE_MS } from '.';

/**
 * The processor answered, and the database connection the answer was being recorded on was lost (its backend
 * terminated, as a database restart or a failover does): the recording is made again on a fresh connection, and only
 * a database that stays gone is answered 503 database_unavailable with Retry-After. The processor is never blamed
 * (502) and a payment it approved is not reversed for a lost connection.
 */
const processor = new RecordingProcessor();
const t = useTestApp({ env: { ...UNTHROTTLED }, processor, poolMax: 8, merchantName: 'Failover Shop' });

const books = (transactionNumber: string) => holdBooks(t.database.sql, transactionNumber);
const detailOf = (body: unknown) => (body as { detail?: string }).detail ?? '';

/**
 * Holds the transaction's row locked, so that the recording's first write waits on it (row-lock.ts); `terminateWaiting`
 * ends the backend of every statement waiting for a lock (the recording's) as PostgreSQL does on a restart; `release`
 * lets the row go.
 */
async function holdRow(transactionNumber: string) {
  const row = await holdTransactionRow(t.database.sql, transactionNumber);
  return {
    ...row,
    /** Resolves once a statement waits for the row, having terminated its backend (or once `stop()` holds). */
    async terminateWaiting(stop: () => boolean = () => false): Promise<void> {
      await lockWaiters(t.database.sql, 1, stop);
      if (stop()) return;
      for (const { pid } of await lockWaitingBackends(t.database.sql)) await t.database.sql`select pg_terminate_backend(${pid}::int)`;
    },
  };
}

/**
 * A consumer payment whose approval arrives while its transaction's row is held: the request is left waiting to record
 * it, on the row.
 */
async function approvalWaitingOnRow(amountCents: number) {
  const created = await t.client.init({ amount: amountCents, isCent: true, currency: 'USD' });
  const gate = processor.holdAnswers();
  const sales = processor.sales;
  const paying = consumerPays(t.app, created.body);
  await processor.salesCalled(sales + 1);
  const row = await holdRow(created.body.TransactionNumber);
  gate.answer();
  return { created, number: created.body.TransactionNumber, paying, row };
}

/** Until `answer` settles, terminates every backend that waits for the row: a database that does not come back in time. */
async function terminateUntil(row: Awaited<ReturnType<typeof holdRow>>, answer: Promise<unknown>): Promise<void> {
  let settled = false;
  void answer.finally(() => (settled = true));
  while (!settled) await row.terminateWaiting(() => settled);
}

async function saleRequest(transactionNumber: string) {
  const [row] = await t.database.sql<{ requestKey: string; state: string; outcome: string | null }[]>`
    select r.request_key as "requestKey", r.state, r.outcome from processor_requests r join transactions t on t.id = r.transaction_id
    where t.transaction_number = ${transactionNumber} and r.operation = 'sale'`;
  return row!;
}

describe("a consumer payment whose approval's recording loses its database connection", () => {
  it('is recorded on a fresh connection: 200, paid once, nothing reversed', async () => {
    const { number, paying, row } = await approvalWaitingOnRow(2_500);
    await row.terminateWaiting();
    await row.release();

    const answered = await paying;
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: Status.Approved });
    const sale = await saleRequest(number);
    expect(sale).toMatchObject({ state: 'done', outcome: 'approved' });
    expect(processor.reversed).not.toContain(sale.requestKey);
    expect(await books(number)).toMatchObject({ status: Status.Approved, payments: 1, requests: 0 });
  });

  it('when the database stays gone: 503 database_unavailable with Retry-After, not reversed by the request; the worker finishes it', async () => {
    const { created, number, paying, row } = await approvalWaitingOnRow(1_900);
    await terminateUntil(row, paying);
    await row.release();

    const answered = await paying;
    expect(answered.status).toBe(503);
    expect(answered.headers.get('retry-after')).not.toBeNull();
    expect(codeOf(answered.body)).toBe('database_unavailable');
    expect(detailOf(answered.body)).toMatch(/nothing stays charged/);
    const sale = await saleRequest(number);
    expect(sale).toMatchObject({ state: 'in_flight' });
    expect(processor.reversed).not.toContain(sale.requestKey);
    // Until its outcome is settled, the link waits for it.
    expect((await consumerPays(t.app, created.body)).status).toBe(409);

    // The worker, once the request's lease ends, cancels the payment whose approval could not be recorded.
    const later = new Date(t.app.clock.now().getTime() + 10 * PROCESSOR_LEASE_MS);
    const deps = { db: t.database.db, processor, clock: t.app.clock, logger: t.app.logger, env: t.app.env };
    expect(await finishAbandonedProcessorRequests(deps, PROCESSOR_OPERATIONS, later)).toBe(1);
    expect(await saleRequest(number)).toMatchObject({ state: 'done', outcome: 'reversed' });
    expect(processor.reversed).toContain(sale.requestKey);
    expect(await books(number)).toMatchObject({ status: Status.Pending, payments: 0, requests: 0 });
    expect((await consumerPays(t.app, created.body)).status).toBe(200);
  });
});

describe("a capture whose outcome's recording loses its database connection", () => {
  it('is recorded on a fresh connection: 200, captured once', async () => {
    const hold = await authorizedHold(t.app, t.client, 1_000);
    const gate = processor.holdAnswers();
    const captures = processor.captures;
    const capturing = t.client.pay({ token: hold.token, amount: 400 });
    await processor.capturesCalled(captures + 1);
    const row = await holdRow(hold.transactionNumber);
    gate.answer();
    await row.terminateWaiting();
    await row.release();

    const answered = await capturing;
    expect(answered.status).toBe(200);
    expect(answered.body.transaction.authorization).toMatchObject({ capturedCents: 400, availableCents: 600 });
    expect(await books(hold.transactionNumber)).toMatchObject({ status: Status.PartiallyCaptured, captured: 400, pending: 0, payments: 1, requests: 0 });
  });
});
