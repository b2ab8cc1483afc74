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

describe('a capture racing a void, a closeAuth or an expiry: one outcome, never both', () => {
  const TRIALS = 15;

  it('capture vs void', async () => {
    for (let i = 0; i < TRIALS; i++) {
      const hold = await authorizedHold(t.app, t.client, 1000);
      const [capture, voided] = await Promise.all([t.client.pay({ token: hold.token, amount: 600 }), t.client.void({ token: hold.token })]);
      expect(voided.status).toBe(200);
      const books = await ledger(hold.transactionNumber);
      expect(books.status).toBe(Status.Voided);
      if (capture.status === 200) {
        expect(books).toMatchObject({ captured: 600, released: 400, payments: 600 });
      } else {
        expect(codeOf(capture.body)).toBe('authorization_not_active');
        expect(books).toMatchObject({ captured: 0, released: 1000, payments: 0 });
      }
      // Never a capture after the void: the void's event is the last one, and it already shows every capture.
      const seen = await history(hold.transactionNumber);
      expect(seen.at(-1)!.status).toBe(Status.Voided);
      expect(seen.at(-1)!.authorization!.capturedCents).toBe(books.captured);
    }
  });

  it('capture vs closeAuth', async () => {
    for (let i = 0; i < TRIALS; i++) {
      const hold = await authorizedHold(t.app, t.client, 1000);
      await t.client.pay({ token: hold.token, amount: 100 });
      const [capture, closed] = await Promise.all([t.client.pay({ token: hold.token, amount: 500 }), t.client.closeAuth(hold.transactionNumber)]);
      expect(closed.status).toBe(200);
      const books = await ledger(hold.transactionNumber);
      expect(books.status).toBe(Status.AuthorizationClosed);
      expect(books.captured + books.released).toBe(1000);
      expect(books.captured).toBe(capture.status === 200 ? 600 : 100);
      expect(books.payments).toBe(books.captured);
      expect((await history(hold.transactionNumber)).at(-1)!.status).toBe(Status.AuthorizationClosed);
    }
  });

  it('capture vs the expiry sweep: whichever takes the row first, the books balance and the last event shows it', async () => {
    const outcomes = new Set<number>();
    for (let i = 0; i < TRIALS; i++) {
      const hold = await authorizedHold(t.app, t.client, 1000);
      const afterExpiry = new Date(Date.parse(hold.transaction.authorization!.expiresAt!) + 1000);
      const [capture] = await Promise.all([
        t.client.pay({ token: hold.token, amount: 700 }),
        sweepDue(
          {
            db: t.database.db,
            processor: new SandboxProcessor(),
            env: t.app.env,
            baseUrl: t.app.env.PUBLIC_BASE_URL,
            clock: t.app.clock,
            logger: t.app.logger,
          },
          afterExpiry,
        ),
      ]);
      outcomes.add(capture.status);
      // The sweep skips a row another transaction holds (SKIP LOCKED); its next tick takes it.
      await sweepDue(
        { db: t.database.db, processor: new SandboxProcessor(), env: t.app.env, baseUrl: t.app.env.PUBLIC_BASE_URL, clock: t.app.clock, logger: t.app.logger },
        afterExpiry,
      );
      const books = await ledger(hold.transactionNumber);
      expect(books.status).toBe(Status.Expired);
      expect(books.captured + books.released).toBe(1000);
      expect(books.captured).toBe(capture.status === 200 ? 700 : 0);
      expect(books.payments).toBe(books.captured);
      const last = (await history(hold.transactionNumber)).at(-1)!;
      expect(last.status).toBe(Status.Expired);
      expect(last.authorization!.capturedCents).toBe(books.captured);
    }
    expect([...outcomes].every((s) => s === 200 || s === 409)).toBe(true);
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
        expect(processor.released.map((r) => r.amountCents)).toEqual([books.released]);
      }
    } finally {
      await recorded.close();
    }
  });
});
