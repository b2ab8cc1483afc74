import type http from 'node:http';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock';
import { loadEnv } from '../../env';
import { createLogger } from '../../logger';
import { answer, startReceiver } from '../../test/callback-receiver';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { claimDueDeliveries, recordOutcomes, type AttemptOutcome, type ClaimedDelivery } from './callbacks.queries';
import { createCallbackDispatcher, type DispatcherDeps } from './dispatcher';
import { OutcomeBatch } from './outcome-batch';

/**
 * How attempt outcomes are written: only the attempt that holds its delivery decides what follows (a late outcome of
 * an attempt whose lease ran out, or that a redelivery started over, is dropped), and a batch the database refuses
 * is written again row by row, so one bad row does not keep the others from being recorded.
 */
const t = useTestApp({ env: { CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', ...UNTHROTTLED }, merchantName: 'Outcome Shop' });
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
  // Each test starts with an empty outbox.
  await t.database.sql`update callback_deliveries set state = 'failed', next_attempt_at = null where state = 'pending'`;
});

interface LogLine {
  level: string;
  msg: string;
  code?: string;
  deliveryId?: string;
  attempt?: number;
  err?: { message: string; cause?: { message: string } };
}

/** A logger whose lines the test reads. */
function capturedLogger() {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });
  return { logger: createLogger({ level: 'debug', destination }), lines, raw };
}

function dispatcher(overrides: Partial<Omit<DispatcherDeps, 'env'>> & { env?: Record<string, string> } = {}) {
  const { env: envOverrides, ...rest } = overrides;
  const env = loadEnv({ CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', CALLBACK_TIMEOUT_MS: '1000', ...envOverrides });
  return createCallbackDispatcher({ db: t.database.db, clock: t.app.clock, logger: createLogger({ level: 'silent' }), ...rest, env });
}

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  cleanups.push(r.close);
  return r;
}

/** A pending sale with a callback URL, then cancelled: one update, one delivery. */
async function oneUpdate(callbackURL: string) {
  const created = await t.client.init({ amount: 5, currency: 'USD', callbackURL });
  expect(created.status).toBe(200);
  await t.client.cancel(created.body.TransactionNumber);
  return created.body.TransactionNumber;
}

/** A delivery queued and not yet attempted (its URL is never contacted by these tests unless they send). */
async function oneDelivery(url = 'http://127.0.0.1:9/never') {
  const number = await oneUpdate(url);
  const [row] = await t.database.sql<{ id: string }[]>`
    select d.id from callback_deliveries d join transactions t on t.id = d.transaction_id where t.transaction_number = ${number}`;
  return row!.id;
}

/** Claims what is due at `clock` with a lease of `leaseMs`, and returns the attempt of `deliveryId`. */
async function claim(clock: ManualClock, deliveryId: string, leaseMs = 60_000): Promise<ClaimedDelivery> {
  const claimed = await claimDueDeliveries(t.database.db, clock.now(), 10, leaseMs);
  const mine = claimed.find((c) => c.deliveryId === deliveryId);
  expect(mine, 'the delivery was claimed').toBeDefined();
  return mine!;
}

const succeeded = (attempt: ClaimedDelivery, finishedAt: Date): AttemptOutcome => ({
  deliveryId: attempt.deliveryId,
  attemptNo: attempt.attemptNo,
  httpStatus: 200,
  error: null,
  durationMs: 7,
  next: { state: 'succeeded' },
  finishedAt,
});

const retryLater = (attempt: ClaimedDelivery, finishedAt: Date): AttemptOutcome => ({
  deliveryId: attempt.deliveryId,
  attemptNo: attempt.attemptNo,
  httpStatus: 500,
  error: 'HTTP 500',
  durationMs: 9,
  next: { state: 'pending', nextAttemptAt: new Date(finishedAt.getTime() + 15_000), schedulePosition: attempt.schedulePosition + 1 },
  finishedAt,
});

interface DeliveryRow {
  id: string;
  state: string;
  attempt_count: number;
  finished: number;
  schedule_position: number;
  next_attempt_at: string | null;
  window_started_at: string | null;
}

async function deliveryStates(ids: string[]) {
  const rows = await t.database.sql<DeliveryRow[]>`
    select d.id, d.state, d.attempt_count, d.schedule_position, d.next_attempt_at, d.window_started_at,
           (select count(*)::int from callback_attempts a where a.delivery_id = d.id and a.finished_at is not null) as finished
    from callback_deliveries d where d.id = any(${ids}::uuid[])`;
  return new Map(rows.map((r) => [r.id, r]));
}

async function deliveryState(id: string) {
  return (await deliveryStates([id])).get(id)!;
}

async function attemptsOf(id: string) {
  return t.database.sql<{ attempt_no: number; http_status: number | null; error: string | null; finished: boolean }[]>`
    select attempt_no, http_status, error, finished_at is not null as finished from callback_attempts where delivery_id = ${id} order by attempt_no`;
}

describe('an outcome counts only for the attempt that holds its delivery', () => {
  it('the late outcome of an attempt whose lease ran out does not overwrite what the attempt that claimed the delivery again recorded', async () => {
    const id = await oneDelivery();
    const clock = new ManualClock(new Date(t.app.clock.now().getTime() + 1000));
    const first = await claim(clock, id);
    clock.advance(61); // the first attempt's lease has run out: the delivery is claimed again
    const second = await claim(clock, id);
    expect([first.attemptNo, second.attemptNo]).toEqual([1, 2]);

    const newer = await recordOutcomes(t.database.db, [succeeded(second, clock.now())]);
    clock.advance(3);
    const late = await recordOutcomes(t.database.db, [retryLater(first, clock.now())]);

    expect(await deliveryState(id)).toMatchObject({ state: 'succeeded', next_attempt_at: null, schedule_position: 0, attempt_count: 2 });
    // Each attempt's own log entry still says how it went: the first was sent and answered 500.
    expect(await attemptsOf(id)).toEqual([
      { attempt_no: 1, http_status: 500, error: 'HTTP 500', finished: true },
      { attempt_no: 2, http_status: 200, error: null, finished: true },
    ]);
    expect(newer).toEqual(['recorded']);
    expect(late).toEqual(['superseded']);
  });

  it.each([
    ['succeeded', succeeded],
    ['failed and would retry later', retryLater],
  ] as const)('an outcome (%s) of an attempt that a redelivery started over does not undo the redelivery', async (_name, outcomeOf) => {
    const merchantEnd = await receiver();
    const id = await oneDelivery(`${merchantEnd.url}/redelivered`);
    const clock = new ManualClock(new Date(t.app.clock.now().getTime() + 1000));
    const inFlight = await claim(clock, id);

    const again = await t.client.call<{ state: string; nextAttemptAt: string }>('POST', `/callbacks/${id}/redeliver`);
    expect(again.status).toBe(202);
    const late = await recordOutcomes(t.database.db, [outcomeOf(inFlight, clock.now())]);

    // Still as the redelivery left it: due at once, from the beginning of the schedule.
    expect(await deliveryState(id)).toMatchObject({ state: 'pending', schedule_position: 0, window_started_at: null, attempt_count: 1 });
    expect(new Date((await deliveryState(id)).next_attempt_at!).toISOString()).toBe(again.body.nextAttemptAt);
    expect(late).toEqual(['superseded']);

    // And the redelivery is sent.
    expect(await dispatcher({ clock }).runOnce()).toBe(1);
    expect(merchantEnd.received).toHaveLength(1);
    expect(await deliveryState(id)).toMatchObject({ state: 'succeeded', attempt_count: 2, finished: 2 });
  });

  it('a dispatcher whose attempt outlived its lease drops its outcome (logged with the delivery id, not the payload); the newer attempt stands', async () => {
    const held: http.ServerResponse[] = [];
    const merchantEnd = await receiver((req, res) => {
      if (held.length === 0)
        held.push(res); // the first attempt waits for the test
      else answer(200)(req, res);
    });
    cleanups.push(async () => {
      for (const res of held) if (!res.writableEnded) res.destroy();
    });
    const id = await oneDelivery(`${merchantEnd.url}/slow`);
    const clock = new ManualClock(new Date(t.app.clock.now().getTime() + 1000));
    const log = capturedLogger();
    // A lease of 15 s (its 10 s timeout + 5 s).
    const slow = dispatcher({ clock, logger: log.logger, env: { CALLBACK_TIMEOUT_MS: '10000' } });
    const slowRun = slow.runOnce();
    await expect.poll(() => merchantEnd.received.length, { timeout: 5_000, interval: 10 }).toBe(1);

    clock.advance(16); // the slow attempt's lease runs out while it waits for its answer
    expect(await dispatcher({ clock }).runOnce()).toBe(1);
    expect(await deliveryState(id)).toMatchObject({ state: 'succeeded', attempt_count: 2 });

    held[0]!.writeHead(500).end(); // the first attempt ends now, failed
    expect(await slowRun).toBe(1);

    expect(await deliveryState(id)).toMatchObject({ state: 'succeeded', next_attempt_at: null, schedule_position: 0 });
    expect((await attemptsOf(id)).map((a) => a.http_status)).toEqual([500, 200]);
    const dropped = log.lines.filter((line) => line.code === 'callback_outcome_superseded');
    expect(dropped).toMatchObject([{ level: 'info', deliveryId: id, attempt: 1 }]);
    // Nothing logged says the late attempt decided what follows.
    expect(log.lines.map((line) => line.msg)).not.toContain('callback attempt failed; will retry');
    const payload = merchantEnd.received[0]!.body;
    expect(payload.length).toBeGreaterThan(0);
    for (const line of log.raw) expect(line).not.toContain(payload);
  });
});

describe('two outcomes of one delivery in one batch', () => {
  it.each([
    ['the older first', (older: AttemptOutcome, newer: AttemptOutcome) => [older, newer]],
    ['the newer first', (older: AttemptOutcome, newer: AttemptOutcome) => [newer, older]],
  ] as const)('the attempt that holds the delivery decides, with %s', async (_name, order) => {
    const id = await oneDelivery();
    const clock = new ManualClock(new Date(t.app.clock.now().getTime() + 1000));
    const first = await claim(clock, id);
    clock.advance(61);
    const second = await claim(clock, id);
    clock.advance(2);

    const batch = order(retryLater(first, clock.now()), succeeded(second, clock.now()));
    const written = await recordOutcomes(t.database.db, batch);

    expect(await deliveryState(id)).toMatchObject({ state: 'succeeded', next_attempt_at: null, schedule_position: 0, finished: 2 });
    expect((await attemptsOf(id)).map((a) => a.http_status)).toEqual([500, 200]);
    expect(written).toEqual(batch.map((o) => (o.attemptNo === second.attemptNo ? 'recorded' : 'superseded')));
  });
});

describe('attempt outcomes written in batches', () => {
  /** Makes PostgreSQL refuse any write of this delivery's attempt outcome: a statement carrying it fails as a whole. */
  async function refuseOutcomeOf(deliveryId: string) {
    await t.database.sql.unsafe(`create or replace function test_refuse_outcome() returns trigger language plpgsql as $$
      begin
        if new.delivery_id = '${deliveryId}'::uuid and new.finished_at is not null then raise exception 'injected: outcome refused'; end if;
        return new;
      end $$`);
    await t.database.sql`create trigger test_refuse_outcome before update on callback_attempts for each row execute function test_refuse_outcome()`;
    const drop = async () => {
      await t.database.sql`drop trigger if exists test_refuse_outcome on callback_attempts`;
    };
    cleanups.push(drop);
    return drop;
  }

  /** Three deliveries claimed at `clock` (lease 60 s), and an outcome for each: succeeded, to retry, failed for good. */
  async function threeClaimedOutcomes(clock: ManualClock) {
    const merchantEnd = await receiver();
    await Promise.all(Array.from({ length: 3 }, (_, i) => oneUpdate(`${merchantEnd.url}/direct${i}`)));
    const claimed = await claimDueDeliveries(t.database.db, clock.now(), 10, 60_000);
    expect(claimed).toHaveLength(3);
    const ids = claimed.map((c) => c.deliveryId);
    const now = clock.now();
    const outcomes: AttemptOutcome[] = [
      { deliveryId: ids[0]!, attemptNo: 1, httpStatus: 200, error: null, durationMs: 3, next: { state: 'succeeded' }, finishedAt: now },
      {
        deliveryId: ids[1]!,
        attemptNo: 1,
        httpStatus: 500,
        error: 'HTTP 500',
        durationMs: 4,
        next: { state: 'pending', nextAttemptAt: new Date(now.getTime() + 15_000), schedulePosition: 1 },
        finishedAt: now,
      },
      { deliveryId: ids[2]!, attemptNo: 1, httpStatus: 410, error: 'HTTP 410', durationMs: 5, next: { state: 'failed', reason: 'gone' }, finishedAt: now },
    ];
    return { ids, outcomes, now };
  }

  it('writes the outcomes of a batch in one statement: all of them, or none when the t.database refuses one', async () => {
    const clock = new ManualClock(new Date(t.app.clock.now().getTime() + 1000));
    const { ids, outcomes, now } = await threeClaimedOutcomes(clock);

    const allow = await refuseOutcomeOf(ids[1]!); // the middle one of the batch
    await expect(recordOutcomes(t.database.db, outcomes)).rejects.toThrow(/injected/);
    for (const row of (await deliveryStates(ids)).values()) {
      // Nothing of the batch was written: every delivery is still claimed (pending, its lease ahead) and its attempt unfinished.
      expect(row).toMatchObject({ state: 'pending', attempt_count: 1, finished: 0, schedule_position: 0 });
      expect(new Date(row.next_attempt_at!).getTime()).toBe(now.getTime() + 60_000);
    }

    await allow();
    expect(await recordOutcomes(t.database.db, outcomes)).toEqual(['recorded', 'recorded', 'recorded']);
    const written = await deliveryStates(ids);
    expect(written.get(ids[0]!)).toMatchObject({ state: 'succeeded', finished: 1, next_attempt_at: null });
    expect(written.get(ids[1]!)).toMatchObject({ state: 'pending', finished: 1, schedule_position: 1 });
    expect(new Date(written.get(ids[1]!)!.next_attempt_at!).getTime()).toBe(now.getTime() + 15_000);
    expect(written.get(ids[2]!)).toMatchObject({ state: 'failed', finished: 1, next_attempt_at: null, schedule_position: 0 });
    const attempts = await t.database.sql<{ http_status: number; error: string | null; duration_ms: number }[]>`
      select http_status, error, duration_ms from callback_attempts where delivery_id = any(${ids}::uuid[]) order by duration_ms`;
    expect(attempts).toEqual([
      { http_status: 200, error: null, duration_ms: 3 },
      { http_status: 500, error: 'HTTP 500', duration_ms: 4 },
      { http_status: 410, error: 'HTTP 410', duration_ms: 5 },
    ]);
  });

  it('a batch the t.database refuses is written again row by row: every other outcome is recorded, only the refused one fails', async () => {
    const clock = new ManualClock(new Date(t.app.clock.now().getTime() + 1000));
    const { ids, outcomes, now } = await threeClaimedOutcomes(clock);
    await refuseOutcomeOf(ids[1]!);

    // As the dispatcher writes them: one batch for the outcomes that arrive in one turn.
    const batch = new OutcomeBatch((items: readonly AttemptOutcome[]) => recordOutcomes(t.database.db, items));
    const results = await Promise.allSettled(outcomes.map((o) => batch.record(o)));

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/injected/);
    const written = await deliveryStates(ids);
    expect(written.get(ids[0]!)).toMatchObject({ state: 'succeeded', finished: 1 });
    expect(written.get(ids[2]!)).toMatchObject({ state: 'failed', finished: 1 });
    // The refused one is still claimed: it is attempted again when its lease ends.
    expect(written.get(ids[1]!)).toMatchObject({ state: 'pending', finished: 0, schedule_position: 0 });
    expect(new Date(written.get(ids[1]!)!.next_attempt_at!).getTime()).toBe(now.getTime() + 60_000);
  });

  it('a refused outcome loses no callback and holds back no other: it is logged as an error, and only it goes out again after the lease', async () => {
    const merchantEnd = await receiver();
    await Promise.all(Array.from({ length: 6 }, (_, i) => oneUpdate(`${merchantEnd.url}/batch${i}`)));
    const pending = await t.database.sql<
      { id: string; event_id: string }[]
    >`select id, event_id from callback_deliveries where state = 'pending' order by created_at`;
    expect(pending).toHaveLength(6);
    const ids = pending.map((p) => p.id);
    const allow = await refuseOutcomeOf(ids[2]!);

    const clock = new ManualClock(new Date(t.app.clock.now().getTime() + 1000));
    const log = capturedLogger();
    const d = dispatcher({ clock, logger: log.logger });
    await expect(d.runOnce()).rejects.toThrow(/injected/);
    expect(merchantEnd.received).toHaveLength(6); // every attempt was sent
    const afterFailure = await deliveryStates(ids);
    for (const id of ids) {
      // Every outcome but the refused one is recorded, whichever batch it was in.
      expect(`${afterFailure.get(id)!.state}/${afterFailure.get(id)!.finished}`).toBe(id === ids[2] ? 'pending/0' : 'succeeded/1');
    }
    const errors = log.lines.filter((line) => line.level === 'error' || line.level === 'fatal');
    expect(errors).toMatchObject([{ code: 'callback_attempt_unrecorded', deliveryId: ids[2], attempt: 1 }]);
    expect(JSON.stringify(errors[0]!.err)).toMatch(/injected: outcome refused/);

    await allow();
    expect(await d.runOnce()).toBe(0); // not before the lease ends (CALLBACK_TIMEOUT_MS 1 s + 5 s)
    clock.advance(6.5);
    expect(await d.runOnce()).toBe(1);
    for (const row of (await deliveryStates(ids)).values()) expect(row).toMatchObject({ state: 'succeeded' });

    const eventOf = new Map(pending.map((p) => [p.id, p.event_id]));
    const receipts = new Map<string, number>();
    for (const hit of merchantEnd.received) receipts.set(hit.headers['webhook-id'] as string, (receipts.get(hit.headers['webhook-id'] as string) ?? 0) + 1);
    for (const id of ids) {
      // At least once; twice only for the attempt whose outcome was refused, and then with the same webhook-id.
      expect(receipts.get(eventOf.get(id)!)).toBe(id === ids[2] ? 2 : 1);
    }
  });
});
