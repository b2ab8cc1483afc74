import { Status, type Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { SandboxProcessor } from '../../processor/sandbox-processor';
import { startTestApp } from '../../test/app';
import { RecordingProcessor } from '../../test/recording-processor';
import { authorizedHold, codeOf, merchantClient } from '../../test/merchant-client';
import { sweepDue } from '../expiry/expiry';
import { useTestApp, UNTHROTTLED } from '../../test/harness';

/**
 * Money under concurrency, on real PostgreSQL through a pool of 10 connections: every move on one authorization
 * is a guarded single statement, so racing requests serialise on the row and each re-checks its guard.
 */
const t = useTestApp({ poolMax: 10, env: UNTHROTTLED, merchantName: 'Concurrent Shop' });

async function ledger(transactionNumber: string) {
  const [row] = await t.database.sql<{ authorized: number; captured: number; released: number; payments: number; status: number }[]>`
    select t.authorized_cents as authorized, t.captured_cents as captured, t.released_cents as released, t.status,
      coalesce((select sum(p.amount_cents) from payments p where p.transaction_id = t.id and p.status = 'succeeded'), 0)::bigint as payments
    from transactions t where t.transaction_number = ${transactionNumber}`;
  return row!;
}

/** Event payloads in order: what every subscriber saw. */
async function history(transactionNumber: string): Promise<Transaction[]> {
  const rows = await t.database.sql<{ payload: Transaction }[]>`
    select e.payload::json as payload from transaction_events e join transactions t on t.id = e.transaction_id
    where t.transaction_number = ${transactionNumber} order by e.sequence`;
  return rows.map((r) => r.payload);
}

describe('concurrent captures against one hold', () => {
  it('200 captures of random amounts never take more than the hold, and the capture rows add up to capturedCents', async () => {
    const HOLD = 10_000;
    const hold = await authorizedHold(t.app, t.client, HOLD);
    const amounts = Array.from({ length: 200 }, () => 1 + Math.floor(Math.random() * 150));
    const answers = await Promise.all(amounts.map((amount) => t.client.pay({ token: hold.token, amount })));

    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].every((s) => s === 200 || s === 409)).toBe(true);
    const taken = answers.reduce((sum, a, i) => (a.status === 200 ? sum + amounts[i]! : sum), 0);
    const books = await ledger(hold.transactionNumber);
    expect(taken).toBeLessThanOrEqual(HOLD);
    expect(books.captured).toBe(taken);
    expect(books.payments).toBe(taken);
    expect(books.captured + books.released).toBeLessThanOrEqual(books.authorized);

    // A refusal saw at least as much available as is left now, so every refused amount exceeds what is left.
    const left = HOLD - taken;
    answers.forEach((a, i) => {
      if (a.status === 409) {
        expect(['amount_exceeds_available', 'authorization_not_active']).toContain(codeOf(a.body));
        expect(amounts[i]!).toBeGreaterThan(left);
      }
    });
    expect(books.status).toBe(left === 0 ? Status.Captured : Status.PartiallyCaptured);
    // Every successful capture moved the sequence once: 1 created, 2 authorized, then one per capture.
    const seen = await history(hold.transactionNumber);
    expect(seen.map((t) => t.sequence)).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
    expect(seen.length).toBe(2 + answers.filter((a) => a.status === 200).length);
  });
});

/** The expiry sweep as a worker runs it, at `at` (past the hold's expiry). */
function sweepAt(at: Date) {
  return sweepDue(
    { db: t.database.db, processor: new SandboxProcessor(), env: t.app.env, baseUrl: t.app.env.PUBLIC_BASE_URL, clock: t.app.clock, logger: t.app.logger },
    at,
  );
}

/**
 * Nothing moved on the hold after it ended: the event that ended it (the first with `ending`) is the last one, and it
 * already shows every capture made. A capture recorded after a void (the void answered while it was at the processor)
 * would come after it.
 */
async function expectEndedLast(transactionNumber: string, ending: number, captured: number): Promise<void> {
  const seen = await history(transactionNumber);
  const ended = seen.findIndex((e) => e.status === ending);
  expect(ended, `the event ending the hold (status ${ending}) is the last of ${seen.length}`).toBe(seen.length - 1);
  expect(seen[ended]!.authorization!.capturedCents).toBe(captured);
}

describe('a capture racing a void, a closeAuth or an expiry: one wins entirely, the other is refused', () => {
  const TRIALS = 50;

  it('a full capture vs void: Captured with the void refused, or Voided with nothing captured; never both answered 200', async () => {
    for (let i = 0; i < TRIALS; i++) {
      const hold = await authorizedHold(t.app, t.client, 1000);
      const [capture, voided] = await Promise.all([t.client.pay({ token: hold.token, amount: 1000 }), t.client.void({ token: hold.token })]);
      const books = await ledger(hold.transactionNumber);
      if (capture.status === 200) {
        // Refused while the capture was at the processor, or after it was recorded.
        expect(voided.status).toBe(409);
        expect(['capture_in_flight', 'authorization_not_active']).toContain(codeOf(voided.body));
        expect(books).toMatchObject({ status: Status.Captured, captured: 1000, released: 0, payments: 1000 });
      } else {
        expect(codeOf(capture.body)).toBe('authorization_not_active');
        expect(voided.status).toBe(200);
        expect(books).toMatchObject({ status: Status.Voided, captured: 0, released: 1000, payments: 0 });
        await expectEndedLast(hold.transactionNumber, Status.Voided, 0);
      }
    }
  });

  it('a partial capture vs void: the void refused while the capture is at the processor; a void that wins comes after every capture', async () => {
    for (let i = 0; i < TRIALS; i++) {
      const hold = await authorizedHold(t.app, t.client, 1000);
      const [capture, voided] = await Promise.all([t.client.pay({ token: hold.token, amount: 600 }), t.client.void({ token: hold.token })]);
      const books = await ledger(hold.transactionNumber);
      expect(books.payments).toBe(books.captured);
      if (voided.status === 200) {
        // First (the capture then refused), or after the capture was recorded (which stands).
        if (capture.status !== 200) expect(codeOf(capture.body)).toBe('authorization_not_active');
        const captured = capture.status === 200 ? 600 : 0;
        expect(books).toMatchObject({ status: Status.Voided, captured, released: 1000 - captured });
        await expectEndedLast(hold.transactionNumber, Status.Voided, captured);
      } else {
        expect(codeOf(voided.body)).toBe('capture_in_flight');
        expect(capture.status).toBe(200);
        expect(books).toMatchObject({ status: Status.PartiallyCaptured, captured: 600, released: 0 });
      }
    }
  });

  it('capture vs closeAuth: closeAuth refused while the capture is at the processor; one that wins comes after every capture', async () => {
    for (let i = 0; i < TRIALS; i++) {
      const hold = await authorizedHold(t.app, t.client, 1000);
      await t.client.pay({ token: hold.token, amount: 100 });
      const [capture, closed] = await Promise.all([t.client.pay({ token: hold.token, amount: 500 }), t.client.closeAuth(hold.transactionNumber)]);
      const books = await ledger(hold.transactionNumber);
      expect(books.payments).toBe(books.captured);
      if (closed.status === 200) {
        if (capture.status !== 200) expect(codeOf(capture.body)).toBe('authorization_not_active');
        const captured = capture.status === 200 ? 600 : 100;
        expect(books).toMatchObject({ status: Status.AuthorizationClosed, captured, released: 1000 - captured });
        await expectEndedLast(hold.transactionNumber, Status.AuthorizationClosed, captured);
      } else {
        expect(codeOf(closed.body)).toBe('capture_in_flight');
        expect(capture.status).toBe(200);
        expect(books).toMatchObject({ status: Status.PartiallyCaptured, captured: 600, released: 0 });
      }
    }
  });

  it('a full capture vs the expiry sweep: the sweep waits for the capture, so a captured hold never reads Expired', async () => {
    for (let i = 0; i < TRIALS; i++) {
      const hold = await authorizedHold(t.app, t.client, 1000);
      const afterExpiry = new Date(Date.parse(hold.transaction.authorization!.expiresAt!) + 1000);
      const [capture] = await Promise.all([t.client.pay({ token: hold.token, amount: 1000 }), sweepAt(afterExpiry)]);
      // The sweep skips a row another transaction holds, or a capture in flight; its next tick takes what is left.
      await sweepAt(afterExpiry);
      const books = await ledger(hold.transactionNumber);
      if (capture.status === 200) {
        expect(books).toMatchObject({ status: Status.Captured, captured: 1000, released: 0, payments: 1000 });
      } else {
        expect(codeOf(capture.body)).toBe('authorization_not_active');
        expect(books).toMatchObject({ status: Status.Expired, captured: 0, released: 1000, payments: 0 });
        await expectEndedLast(hold.transactionNumber, Status.Expired, 0);
      }
    }
  });

  it('a partial capture vs the expiry sweep: the hold expires after the capture is recorded, with what it left', async () => {
    for (let i = 0; i < TRIALS; i++) {
      const hold = await authorizedHold(t.app, t.client, 1000);
      const afterExpiry = new Date(Date.parse(hold.transaction.authorization!.expiresAt!) + 1000);
      const [capture] = await Promise.all([t.client.pay({ token: hold.token, amount: 700 }), sweepAt(afterExpiry)]);
      await sweepAt(afterExpiry);
      const books = await ledger(hold.transactionNumber);
      const captured = capture.status === 200 ? 700 : 0;
      if (capture.status !== 200) expect(codeOf(capture.body)).toBe('authorization_not_active');
      expect(books).toMatchObject({ status: Status.Expired, captured, released: 1000 - captured, payments: captured });
      await expectEndedLast(hold.transactionNumber, Status.Expired, captured);
    }
  });

  it('void vs closeAuth vs re-authorization: exactly one ending, the books always balance', async () => {
    const reauthorized = new Set<number>();
    for (let i = 0; i < TRIALS; i++) {
      const hold = await authorizedHold(t.app, t.client, 1000);
      await t.client.pay({ token: hold.token, amount: 100 });
      const [voided, closed, renewed] = await Promise.all([
        t.client.void({ token: hold.token }),
        t.client.closeAuth(hold.transactionNumber),
        t.client.authorize({ token: hold.token, amount: 500 }),
      ]);
      expect([voided.status, closed.status].sort()).toEqual([200, 409]);
      reauthorized.add(renewed.status);
      const books = await ledger(hold.transactionNumber);
      expect([Status.Voided, Status.AuthorizationClosed]).toContain(books.status);
      expect(books.captured + books.released).toBe(books.authorized);
      // A re-authorization that came first added its hold, which the ending released; one that came after was refused.
      expect(books.authorized).toBe(renewed.status === 200 ? 1500 : 1000);
    }
    expect([...reauthorized].every((s) => s === 200 || s === 409)).toBe(true);
  });

  it('a void racing a capture tells the processor to release what the hold held when it ended', async () => {
    const processor = new RecordingProcessor();
    const recorded = await startTestApp(t.database, { env: UNTHROTTLED, processor });
    try {
      const client = merchantClient(recorded, t.merchant);
      for (let i = 0; i < TRIALS; i++) {
        const hold = await authorizedHold(recorded, client, 1000);
        processor.released = [];
        await Promise.all([client.pay({ token: hold.token, amount: 300 }), client.void({ token: hold.token })]);
        const books = await ledger(hold.transactionNumber);
        // A void refused while the capture was at the processor released nothing.
        expect(processor.released.map((r) => r.amountCents)).toEqual(books.released > 0 ? [books.released] : []);
      }
    } finally {
      await recorded.close();
    }
  });
});

describe("while a capture's processor call is unanswered", () => {
  it('void and closeAuth answer 409 capture_in_flight naming the amount, and the expiry waits for the outcome', async () => {
    const processor = new RecordingProcessor();
    const recorded = await startTestApp(t.database, { env: UNTHROTTLED, processor });
    try {
      const client = merchantClient(recorded, t.merchant);
      const hold = await authorizedHold(recorded, client, 1000);
      expect((await client.pay({ token: hold.token, amount: 200 })).status).toBe(200);
      const afterExpiry = new Date(Date.parse(hold.transaction.authorization!.expiresAt!) + 1000);
      const gate = processor.holdAnswers();
      const capturing = client.pay({ token: hold.token, amount: 500 });
      await processor.capturesCalled(2);

      for (const refused of [
        await client.void({ token: hold.token }),
        await client.void({ transactionNumber: hold.transactionNumber }),
        await client.closeAuth(hold.transactionNumber),
      ]) {
        expect(refused.status).toBe(409);
        expect(codeOf(refused.body)).toBe('capture_in_flight');
        expect((refused.body as unknown as { detail: string }).detail).toMatch(/500 cents.*retry/i);
      }
      await sweepAt(afterExpiry);
      expect(await ledger(hold.transactionNumber)).toMatchObject({ status: Status.PartiallyCaptured, captured: 200, released: 0 });
      expect(processor.released).toEqual([]);

      gate.answer();
      expect((await capturing).status).toBe(200);
      expect(await ledger(hold.transactionNumber)).toMatchObject({ status: Status.PartiallyCaptured, captured: 700, released: 0 });
      // Once the capture is recorded, the expiry takes what it left.
      await sweepAt(afterExpiry);
      expect(await ledger(hold.transactionNumber)).toMatchObject({ status: Status.Expired, captured: 700, released: 300, payments: 700 });
      await expectEndedLast(hold.transactionNumber, Status.Expired, 700);
    } finally {
      await recorded.close();
    }
  });

  it('a full capture at the processor: void refused and the expiry waits; the hold reads Captured, never Voided or Expired', async () => {
    const processor = new RecordingProcessor();
    const recorded = await startTestApp(t.database, { env: UNTHROTTLED, processor });
    try {
      const client = merchantClient(recorded, t.merchant);
      const hold = await authorizedHold(recorded, client, 1000);
      const afterExpiry = new Date(Date.parse(hold.transaction.authorization!.expiresAt!) + 1000);
      const gate = processor.holdAnswers();
      const capturing = client.pay({ token: hold.token, amount: 1000 });
      await processor.capturesCalled(1);
      const voided = await client.void({ token: hold.token });
      expect(voided.status).toBe(409);
      expect(codeOf(voided.body)).toBe('capture_in_flight');
      await sweepAt(afterExpiry);
      gate.answer();
      expect((await capturing).status).toBe(200);
      await sweepAt(afterExpiry);
      expect(await ledger(hold.transactionNumber)).toMatchObject({ status: Status.Captured, captured: 1000, released: 0, payments: 1000 });
      expect((await history(hold.transactionNumber)).map((e) => e.status)).not.toContain(Status.Voided);
    } finally {
      await recorded.close();
    }
  });
});
