import { describe, expect, it } from 'vitest';
import { insertTokenizedMethod } from '../../test/fixtures';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { authorizedHold } from '../../test/merchant-client';
import { RecordingProcessor } from '../../test/recording-processor';
import { holdTransactionRow, lockWaiters } from '../../test/row-lock';
import { PROCESSOR_OPERATIONS } from '../../processor-operations';
import { finishAbandonedProcessorRequests, PROCESSOR_LEASE_MS } from '.';

/**
 * Before it reverses a payment, the request claims it (a new attempt, committed). That claim waits for whoever holds
 * the request's row, as a recording in doubt does from its last statement to its commit: it gives the recorded answer
 * if that commits, and if the wait outlasts the statement timeout (or the database is gone) the caller is told the
 * payment is being cancelled (502; the worker reverses it), never "nothing was kept" (503) or a 500. A capture whose
 * outcome cannot be recorded in time is answered 503 saying it stays in flight and is recorded automatically.
 */
const processor = new RecordingProcessor();
const t = useTestApp({ env: { ...UNTHROTTLED }, processor, poolMax: 6, statementTimeoutMs: 1_000, merchantName: 'Claim Shop' });

/**
 * Holds the newest token charge's row locked (approving it first, if asked) from when `locked` resolves until
 * `release` does, as a recording transaction in doubt would.
 */
function holdRequestRow(approve: boolean, release: Promise<unknown>): { locked: Promise<void>; done: Promise<unknown> } {
  let locked!: () => void;
  const lockedNow = new Promise<void>((resolve) => (locked = resolve));
  const done = t.database.sql.begin(async (sql) => {
    const [row] = await sql<{ id: string }[]>`select id from processor_requests where operation = 'charge_token' order by created_at desc limit 1 for update`;
    if (approve) {
      await sql`update processor_requests set state = 'done', outcome = 'approved', completed_at = now(), response_status = 200,
        response_body = '{"recorded":"in doubt"}' where id = ${row!.id}`;
    }
    locked();
    await release;
  });
  return { locked: lockedNow, done };
}

/** Resolves once a statement of the app waits for a row lock in this database. */
const claimWaiting = () => lockWaiters(t.database.sql, 1);

describe("the request's claim before it reverses a payment", () => {
  it('waits for a recording in doubt, and when that commits gives its answer: no reversal is sent', async () => {
    const token = await insertTokenizedMethod(t.database.db, t.merchant.merchantId, 'indoubt');
    const held = processor.holdThenFail();
    const charges = processor.tokenCharges;
    const paying = t.client.pay({ token, amount: 321, currency: 'USD' });
    await processor.tokenChargesCalled(charges + 1);
    let commit!: () => void;
    const row = holdRequestRow(true, new Promise<void>((resolve) => (commit = resolve)));
    await row.locked;
    const reversalsBefore = processor.reversed.length;
    held.fail();
    await claimWaiting();
    commit();
    await row.done;
    const answered = await paying;
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({ recorded: 'in doubt' });
    expect(processor.reversed.length).toBe(reversalsBefore);
  });

  it('that outlasts the statement timeout answers 502 "being cancelled", and the payment stays in flight for the worker', async () => {
    const token = await insertTokenizedMethod(t.database.db, t.merchant.merchantId, 'outlasts');
    const held = processor.holdThenFail();
    const charges = processor.tokenCharges;
    const paying = t.client.pay({ token, amount: 654, currency: 'USD' }, { 'idempotency-key': 'outlasts' });
    await processor.tokenChargesCalled(charges + 1);
    const row = holdRequestRow(false, paying);
    await row.locked;
    held.fail();
    const answered = await paying;
    await row.done;
    expect(answered.status).toBe(502);
    expect((answered.body as unknown as { detail: string }).detail).toMatch(/being cancelled/);
    const [request] = await t.database.sql`select state, attempts from processor_requests where operation = 'charge_token' order by created_at desc limit 1`;
    expect(request).toEqual({ state: 'in_flight', attempts: 1 });
    expect((await t.client.pay({ token, amount: 654, currency: 'USD' }, { 'idempotency-key': 'outlasts' })).status).toBe(409);
  });
});

describe('a capture whose outcome cannot be recorded in time (the database does not answer)', () => {
  it('answers 503 with Retry-After, saying the capture is in flight and recorded automatically; the worker records it', async () => {
    const hold = await authorizedHold(t.app, t.client, 1_000);
    const gate = processor.holdAnswers();
    const captures = processor.captures;
    const capturing = t.client.pay({ token: hold.token, amount: 300 }, { 'idempotency-key': 'capture-unrecorded' });
    await processor.capturesCalled(captures + 1);
    // The transaction's row held past the statement timeout, as a database that stopped answering would.
    const row = await holdTransactionRow(t.database.sql, hold.transactionNumber);
    gate.answer();
    const answered = await capturing;
    await row.release();
    expect(answered.status).toBe(503);
    expect(answered.headers.get('retry-after')).toBe('1');
    expect((answered.body as unknown as { detail: string }).detail).toMatch(/recorded automatically/);
    expect((await t.client.pay({ token: hold.token, amount: 300 }, { 'idempotency-key': 'capture-unrecorded' })).status).toBe(409);

    // The worker (which also reverses the token charge the test before left in flight) records the capture.
    const later = new Date(t.app.clock.now().getTime() + 10 * PROCESSOR_LEASE_MS);
    const deps = { db: t.database.db, processor, clock: t.app.clock, logger: t.app.logger, env: t.app.env };
    await finishAbandonedProcessorRequests(deps, PROCESSOR_OPERATIONS, later);
    const replay = await t.client.pay({ token: hold.token, amount: 300 }, { 'idempotency-key': 'capture-unrecorded' });
    expect(replay.status).toBe(200);
    expect(replay.body.transaction.authorization).toMatchObject({ capturedCents: 300 });
  });
});
