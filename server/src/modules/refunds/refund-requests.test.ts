import { Status } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { codeOf, paidSale } from '../../test/merchant-client';
import { RecordingProcessor } from '../../test/recording-processor';
import { PROCESSOR_OPERATIONS } from '../../processor-operations';
import { finishAbandonedProcessorRequests, listNeedingReview, PROCESSOR_LEASE_MS, retryNeedingReview } from '../processor-requests';

/**
 * Refunds as processor requests: reserved before the call, called outside any lock with a request key, recorded
 * once; never more than settled however many are sent at once; one per Idempotency-Key; an unanswered refund asked
 * again with the same key until it is answered, never reversed.
 */
const processor = new RecordingProcessor();
const GIVE_UP_S = 3_600;
const t = useTestApp({
  env: { ...UNTHROTTLED, CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', PROCESSOR_REQUEST_GIVE_UP_S: String(GIVE_UP_S) },
  processor,
  poolMax: 12,
  merchantName: 'Busy Shop',
});

/** The worker of a later start of the service, `afterMs` past the app's clock (past every lease taken so far by default). */
function runWorker(afterMs = PROCESSOR_LEASE_MS + 1_000): Promise<number> {
  const later = { now: () => new Date(t.app.clock.now().getTime() + afterMs) };
  return finishAbandonedProcessorRequests(
    { db: t.database.db, processor, clock: later, logger: t.app.logger, env: t.app.env },
    PROCESSOR_OPERATIONS,
    later.now(),
  );
}

/** The transaction's refund counters and refund rows, as the database holds them. */
async function books(transactionNumber: string) {
  const [row] = await t.database.sql<{ status: number; refunded: number; inFlight: number; refunds: number; pending: number; deliveries: number }[]>`
    select t.status, t.refunded_cents::int as refunded, t.refunds_in_flight_cents::int as "inFlight",
      (select count(*)::int from refunds r where r.transaction_id = t.id) as refunds,
      (select count(*)::int from refunds r where r.transaction_id = t.id and r.status = 'pending') as pending,
      (select count(*)::int from callback_deliveries d where d.transaction_id = t.id) as deliveries
    from transactions t where t.transaction_number = ${transactionNumber}`;
  return row!;
}

describe('refunds sent at once', () => {
  it('twenty concurrent refunds of one sale never exceed it: as many succeed as fit, the rest are refused', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 1_500);
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.client.refund(transactionNumber, { amount: 100 })));
    const succeeded = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(succeeded).toHaveLength(15);
    expect(refused.map((a) => codeOf(a.body))).toEqual(Array(5).fill('amount_exceeds_refundable'));
    expect(await books(transactionNumber)).toMatchObject({ status: Status.Refunded, refunded: 1_500, inFlight: 0, refunds: 15, pending: 0 });
  });

  it('twenty concurrent "refund everything" requests refund it once', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 900);
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.client.refund(transactionNumber)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await books(transactionNumber)).toMatchObject({ status: Status.Refunded, refunded: 900, inFlight: 0, refunds: 1 });
  });

  it('one refund per Idempotency-Key: a retry replays the answer, a concurrent one is told the first is running', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 1_000);
    const calls = processor.refunds.length;
    const key = { 'idempotency-key': 'refund-mug-1' };
    const [first, second] = await Promise.all([
      t.client.refund(transactionNumber, { amount: 300 }, key),
      t.client.refund(transactionNumber, { amount: 300 }, key),
    ]);
    const statuses = [first.status, second.status].sort();
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(statuses);
    const replay = await t.client.refund(transactionNumber, { amount: 300 }, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual((first.status === 200 ? first : second).body);
    const otherBody = await t.client.refund(transactionNumber, { amount: 301 }, key);
    expect(codeOf(otherBody.body)).toBe('idempotency_key_reused');
    expect(processor.refunds.length - calls).toBe(1);
    expect(await books(transactionNumber)).toMatchObject({ status: Status.PartiallyRefunded, refunded: 300, refunds: 1 });
  });
});

describe('a refund recorded by the worker and by its request', () => {
  it('is recorded once: the request recording second is refused by its event statement even when another refund leaves a reservation to settle', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 1_000, undefined, { callbackURL: 'http://127.0.0.1:9/hooks' });
    const before = await books(transactionNumber);
    const calls = processor.refunds.length;
    // Refund A is answered by the processor only when the gate opens: its request records it after the worker has.
    const gate = processor.holdAnswers();
    const first = t.client.refund(transactionNumber, { amount: 200 }, { 'idempotency-key': 'refund-raced' });
    await processor.refundsCalled(calls + 1);
    // Refund B, made once A's lease has run out, stays in flight unanswered with its 300 cents reserved: enough for
    // A's settlement to pass its guard (in flight ≥ 200) when A's request records A a second time.
    await t.client.advanceClock(PROCESSOR_LEASE_MS / 1_000 + 1);
    processor.unreachable = true;
    expect((await t.client.refund(transactionNumber, { amount: 300 })).status).toBe(502);
    processor.unreachable = false;
    gate.passNewCalls();

    // The worker finishes A (B's lease has not run out), asking again with A's key.
    expect(await runWorker(1_000)).toBe(1);
    expect(await books(transactionNumber)).toMatchObject({ refunded: 200, inFlight: 300, refunds: 2, pending: 1 });

    // A's request now records A too: its statements settle 200 more out of B's reservation, then the event statement
    // refuses (A's refund is no longer pending, its request done) and all of it rolls back. A's answer is the worker's.
    gate.answer();
    const answered = await first;
    expect(answered.status).toBe(200);
    expect(answered.body.refund).toMatchObject({ amountCents: 200, status: 'succeeded' });
    expect(await books(transactionNumber)).toMatchObject({ status: Status.PartiallyRefunded, refunded: 200, inFlight: 300, refunds: 2, pending: 1 });
    const replay = await t.client.refund(transactionNumber, { amount: 200 }, { 'idempotency-key': 'refund-raced' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(answered.body);

    // B is finished by a later worker: 500 refunded in all, each refund's creation and outcome called back once.
    expect(await runWorker(10 * PROCESSOR_LEASE_MS)).toBe(1);
    const after = await books(transactionNumber);
    expect(after).toMatchObject({ status: Status.PartiallyRefunded, refunded: 500, inFlight: 0, refunds: 2, pending: 0 });
    expect(after.deliveries - before.deliveries).toBe(4);
  });
});

describe('a refund the processor does not answer', () => {
  it('stays pending with its amount reserved (502), and is finished by the worker after a restart with the same request key, once', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 1_000, undefined, { callbackURL: 'http://127.0.0.1:9/hooks' });
    const calls = processor.refunds.length;
    const before = await books(transactionNumber);
    processor.unreachable = true;
    const unanswered = await t.client.refund(transactionNumber, { amount: 400 }, { 'idempotency-key': 'refund-unanswered' });
    expect(unanswered.status).toBe(502);
    expect(codeOf(unanswered.body)).toBe('processor_failure');
    const pending = (await t.client.get(transactionNumber)).body;
    expect(pending).toMatchObject({ status: Status.Approved, refundedCents: 0, refundableCents: 600 });
    expect(pending.refunds).toMatchObject([{ amountCents: 400, status: 'pending' }]);
    // What is in flight is spoken for: a second refund gets only what is left.
    expect(codeOf((await t.client.refund(transactionNumber, { amount: 601 })).body)).toBe('amount_exceeds_refundable');
    // Until it is recorded, a retry under the key is told the first is still running.
    expect(codeOf((await t.client.refund(transactionNumber, { amount: 400 }, { 'idempotency-key': 'refund-unanswered' })).body)).toBe('idempotency_key_in_use');

    // The worker asks again with the same key; still no answer: still pending, never reversed.
    expect(await runWorker()).toBe(0);
    expect(await books(transactionNumber)).toMatchObject({ status: Status.Approved, inFlight: 400, pending: 1 });
    processor.unreachable = false;
    expect(await runWorker(4 * PROCESSOR_LEASE_MS)).toBe(1);
    const keys = processor.refunds.slice(calls).map((call) => call.requestKey);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(processor.reversed).not.toContain(keys[0]);
    const after = await books(transactionNumber);
    expect(after).toMatchObject({ status: Status.PartiallyRefunded, refunded: 400, inFlight: 0, refunds: 1, pending: 0 });
    // Its creation and its outcome are each a callback.
    expect(after.deliveries - before.deliveries).toBe(2);

    const replay = await t.client.refund(transactionNumber, { amount: 400 }, { 'idempotency-key': 'refund-unanswered' });
    expect(replay.status).toBe(200);
    expect(replay.body.refund).toMatchObject({ amountCents: 400, status: 'succeeded' });
    expect(await runWorker(20 * PROCESSOR_LEASE_MS)).toBe(0);
    expect(processor.refunds.length - calls).toBe(3);
  });

  it('is set aside as needs_review after the give-up time, its amount still reserved, and finished once an operator retries it', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 700);
    processor.unreachable = true;
    expect((await t.client.refund(transactionNumber)).status).toBe(502);
    await runWorker(GIVE_UP_S * 1000 + PROCESSOR_LEASE_MS);
    processor.unreachable = false;
    const aside = (await listNeedingReview(t.database.db)).filter((r) => r.transactionNumber === transactionNumber);
    expect(aside).toMatchObject([{ operation: 'refund', amountCents: 700 }]);
    expect(await books(transactionNumber)).toMatchObject({ status: Status.Approved, inFlight: 700, pending: 1 });
    expect(codeOf((await t.client.refund(transactionNumber, { amount: 1 })).body)).toBe('amount_exceeds_refundable');

    expect(await retryNeedingReview(t.database.db, aside[0]!.id, t.app.clock.now())).not.toBeNull();
    await runWorker(1_000);
    expect(await books(transactionNumber)).toMatchObject({ status: Status.Refunded, refunded: 700, inFlight: 0, pending: 0 });
  });
});
