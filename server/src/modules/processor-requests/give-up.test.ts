import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock';
import { createLogger } from '../../logger';
import type { PaymentProcessor } from '../../processor/processor';
import { insertTokenizedMethod } from '../../test/fixtures';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { authorizedHold } from '../../test/merchant-client';
import { runNode } from '../../test/process';
import { RecordingProcessor } from '../../test/recording-processor';
import { PROCESSOR_OPERATIONS } from '../../processor-operations';
import { finishAbandonedProcessorRequests, PROCESSOR_LEASE_MS } from '.';

/**
 * Issue 14, review of finding 9: the worker never gave up on a request the processor never answered, so a capture's
 * reservation (or a commit's in-flight mark) stayed forever with nobody told. Now each attempt waits twice as long as
 * the one before, and after PROCESSOR_REQUEST_GIVE_UP_S the request is set aside as `needs_review` with an error
 * logged; the operator lists it and, once it is settled with the acquirer, retries it with `svc processor-requests`.
 */
const GIVE_UP_S = 3_600;
const processor = new RecordingProcessor();
const lines: { level: string; code?: string; processorRequestId?: string }[] = [];
const logger = createLogger({
  level: 'info',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
      done();
    },
  }),
});
const t = useTestApp({
  env: { ...UNTHROTTLED, PROCESSOR_REQUEST_GIVE_UP_S: String(GIVE_UP_S) },
  processor,
  logger,
  poolMax: 10,
  merchantName: 'Unanswered Shop',
});

/** The worker at `seconds` after the service clock's now. */
function workerAt(seconds: number): Promise<number> {
  return finishAbandonedProcessorRequests(
    { db: t.database.db, processor, clock: t.app.clock, logger, env: t.app.env },
    PROCESSOR_OPERATIONS,
    new Date(t.app.clock.now().getTime() + seconds * 1000),
  );
}

async function captureRequest() {
  const [row] = await t.database.sql<
    { id: string; state: string; attempts: number; lastError: string | null; leaseS: number; pending: number; captured: number }[]
  >`
    select r.id, r.state, r.attempts, r.last_error as "lastError",
      round(extract(epoch from r.lease_expires_at - r.created_at))::int as "leaseS",
      t.capture_pending_cents::int as pending, t.captured_cents::int as captured
    from processor_requests r join transactions t on t.id = r.transaction_id where r.operation = 'capture'`;
  return row!;
}

const svc = (...args: string[]) => runNode(['bin/svc.mjs', ...args], { DATABASE_URL: t.database.url });

describe('a capture the processor never answers', () => {
  it('is retried less and less often, then set aside as needs_review with an error logged, its reservation kept', async () => {
    const hold = await authorizedHold(t.app, t.client, 5_000);
    processor.unreachable = true;
    const capture = await t.client.pay({ token: hold.token, amount: 2_000 });
    expect(capture.status).toBe(502);
    const asked = await captureRequest();
    expect(asked).toMatchObject({ state: 'in_flight', attempts: 1, pending: 2_000 });

    expect(await workerAt(PROCESSOR_LEASE_MS / 1000 + 1)).toBe(0);
    const second = await captureRequest();
    expect(second).toMatchObject({ state: 'in_flight', attempts: 2, lastError: expect.stringMatching(/unreachable/) });
    // Its next attempt is two leases after this one, not one.
    expect(second.leaseS).toBeGreaterThanOrEqual(PROCESSOR_LEASE_MS / 1000 + 1 + (2 * PROCESSOR_LEASE_MS) / 1000 - 1);
    expect(await workerAt(PROCESSOR_LEASE_MS / 1000 + 1 + PROCESSOR_LEASE_MS / 1000)).toBe(0);
    expect((await captureRequest()).attempts).toBe(2);

    expect(await workerAt(GIVE_UP_S + 1)).toBe(0);
    const aside = await captureRequest();
    expect(aside).toMatchObject({ state: 'needs_review', attempts: 3, pending: 2_000, captured: 0 });
    expect(lines.filter((line) => line.code === 'processor_request_needs_review' && line.processorRequestId === aside.id)).toHaveLength(1);
    expect(lines.find((line) => line.code === 'processor_request_needs_review')?.level).toBe('error');
    // Set aside: the worker leaves it alone, however late.
    expect(await workerAt(10 * GIVE_UP_S)).toBe(0);
    expect((await captureRequest()).attempts).toBe(3);
    // The hold cannot be captured beyond what is left while the amount stays reserved.
    const more = await t.client.pay({ token: hold.token, amount: 3_001 });
    expect(more.status).toBe(409);
  });

  // Four runs of the CLI, each a process of its own that loads the server's code: minutes on a loaded machine.
  it('is listed by `svc processor-requests`, and `retry ID` puts it back for the worker, which records it', { timeout: 120_000 }, async () => {
    const { id } = await captureRequest();
    const listed = await svc('processor-requests', '--json');
    expect(listed.code).toBe(0);
    const requests = JSON.parse(listed.stdout) as { id: string; operation: string; amountCents: number; lastError: string }[];
    expect(requests).toEqual([expect.objectContaining({ id, operation: 'capture', amountCents: 2_000, lastError: expect.stringMatching(/unreachable/) })]);

    expect((await svc('processor-requests', 'retry', '00000000-0000-4000-8000-000000000000')).code).toBe(1);
    const retried = await svc('processor-requests', 'retry', id);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain('in flight again');
    processor.unreachable = false;
    expect(await workerAt(1)).toBe(1);
    expect(await captureRequest()).toMatchObject({ state: 'done', pending: 0, captured: 2_000 });
    expect((await svc('processor-requests')).stdout).toContain('No processor request needs review');
  });
});

describe('a payment whose own reversal went unanswered', () => {
  it('is reversed by the worker once before it could be set aside, however late the worker comes', async () => {
    const token = await insertTokenizedMethod(t.database.db, t.merchant.merchantId, 'untried');
    processor.unreachable = true;
    const charged = await t.client.pay({ token, amount: 500, currency: 'USD' });
    expect(charged.status).toBe(502); // being cancelled: the request's own reversal failed too
    processor.unreachable = false;
    const before = processor.reversed.length;
    expect(await workerAt(GIVE_UP_S + 60)).toBe(1);
    expect(processor.reversed.length - before).toBe(1);
    const [row] = await t.database.sql`select state, outcome from processor_requests where operation = 'charge_token'`;
    expect(row).toEqual({ state: 'done', outcome: 'reversed' });
  });
});

describe('one run of the worker during a processor outage', () => {
  it('tries each request that was due when it started once, and ends: those due again wait for the next run', async () => {
    const clock = new ManualClock(new Date('2026-11-24T00:00:00.000Z'));
    const at = (offsetS: number) => new Date(clock.now().getTime() + offsetS * 1000).toISOString();
    for (let i = 0; i < 4; i++) {
      await t.database
        .sql`insert into processor_requests (request_key, merchant_id, operation, amount_cents, currency, state, attempts, lease_expires_at, created_at)
        values (${`prq_outage_${i}`}, ${t.merchant.merchantId}, 'charge_token', 100, 'USD', 'in_flight', 1, ${at(-1)}::timestamptz, ${at(-61)}::timestamptz)`;
    }
    let reversals = 0;
    // Each unanswered call takes 10 minutes of the clock: the leases the earlier ones took run out meanwhile.
    const unanswered = {
      reverse: () => {
        reversals += 1;
        clock.advance(10 * 60);
        return Promise.reject(new Error('no answer'));
      },
    } as unknown as PaymentProcessor;
    const finished = await finishAbandonedProcessorRequests(
      { db: t.database.db, processor: unanswered, clock, logger, env: t.app.env },
      PROCESSOR_OPERATIONS,
      clock.now(),
    );
    expect({ finished, reversals }).toEqual({ finished: 0, reversals: 4 });
    const rows = await t.database.sql`select state, attempts from processor_requests where request_key like 'prq_outage_%'`;
    expect(rows.map((row) => [row.state, row.attempts])).toEqual(Array.from({ length: 4 }, () => ['in_flight', 2]));
  });
});
