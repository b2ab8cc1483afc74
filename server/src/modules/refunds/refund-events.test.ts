import { TransactionSchema, type Refund } from '@svc/protocol';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { paidSale } from '../../test/merchant-client';
import { loadTransactionView, recordChange } from '../transactions';
import { refundOutcomeRider, withFinishedRefund, type FinishedRefundRow } from './refunds.queries';

/**
 * A refund's rows ride in its event statements: the pending refund is inserted by its creation's event statement,
 * its outcome written by the outcome's, guarded. The events show the refunds as the database holds them.
 */
const clock = new ManualClock('2026-03-01T09:00:00.000Z');
const t = useTestApp({ env: UNTHROTTLED, clock, merchantName: 'Still Clock Shop' });

/** The transaction objects of the transaction's events, oldest first. */
async function eventPayloads(transactionNumber: string) {
  const rows = await t.database.sql<{ sequence: number; payload: string }[]>`
    select e.sequence, e.payload from transaction_events e join transactions t on t.id = e.transaction_id
    where t.transaction_number = ${transactionNumber} order by e.sequence`;
  return rows.map((row) => ({ sequence: row.sequence, transaction: TransactionSchema.parse(JSON.parse(row.payload)) }));
}

const idsOf = (refunds: Refund[]) => refunds.map((r) => r.refundId);

describe("a refund's events", () => {
  it('list the refunds in the order the database reads them, refunds made in the same millisecond included', async () => {
    // The clock stands still: every refund has the same createdAt, and the database orders them by id.
    const { transactionNumber } = await paidSale(t.app, t.client, 1_000);
    const paid = (await t.client.get(transactionNumber)).body;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const refunded = await t.client.refund(transactionNumber, { amount: 100 });
      expect(refunded.status).toBe(200);
      made.push(refunded.body.refund.refundId);
    }
    const held = (await t.client.get(transactionNumber)).body;
    expect(new Set(held.refunds.map((r) => r.createdAt)).size).toBe(1);
    const databaseOrder = idsOf(held.refunds);

    const events = (await eventPayloads(transactionNumber)).filter((e) => e.sequence > paid.sequence);
    expect(events).toHaveLength(10);
    events.forEach(({ transaction }, i) => {
      // Each refund makes two events: its creation (the new refund pending), then its outcome (succeeded).
      const existing = new Set(made.slice(0, Math.floor(i / 2) + 1));
      expect(idsOf(transaction.refunds)).toEqual(databaseOrder.filter((id) => existing.has(id)));
      const latest = transaction.refunds.find((r) => r.refundId === made[Math.floor(i / 2)]);
      expect(latest?.status).toBe(i % 2 === 0 ? 'pending' : 'succeeded');
    });
    // The last event's transaction is the one the database holds.
    expect(events.at(-1)!.transaction).toEqual(held);
  });

  it("refuse a refund's outcome once the refund is no longer pending: nothing of the change is written", async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 600);
    const refunded = await t.client.refund(transactionNumber, { amount: 250 });
    expect(refunded.body.refund.status).toBe('succeeded');
    const before = await eventPayloads(transactionNumber);

    // A second outcome of the succeeded refund, as a recorder coming second would write it (without a request's move
    // to done beside it: this guard alone), on a change that took the transaction's next sequence.
    const [row] = await t.database.sql<{ id: string }[]>`select id from transactions where transaction_number = ${transactionNumber}`;
    const change = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`update transactions set sequence = sequence + 1 where id = ${row!.id}`);
      const view = await loadTransactionView(tx, row!.id);
      const refund = view.refunds[0]!;
      const failed: FinishedRefundRow = { ...refund, status: 'failed', failureCode: 'refund_declined', updatedAt: clock.now() };
      await recordChange(tx, withFinishedRefund(view, failed), { at: clock.now(), baseUrl: t.app.env.PUBLIC_BASE_URL, riders: [refundOutcomeRider(failed)] });
    });
    await expect(change).rejects.toThrow(`refund ${refunded.body.refund.refundId} is no longer pending`);

    expect(await eventPayloads(transactionNumber)).toEqual(before);
    expect((await t.client.get(transactionNumber)).body).toEqual(refunded.body.transaction);
  });
});
