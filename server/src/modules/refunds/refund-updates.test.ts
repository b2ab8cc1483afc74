import { Status, TransactionSchema } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../test/app';
import { paidSale } from '../../test/merchant-client';
import { isSubscribed, isUpdate, useRealtimeApp } from '../../realtime/testing';

/** A refund's creation and its outcome are each a transaction update: a websocket event, a callback, the next sequence. */
const t = useRealtimeApp({ env: { CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' } });

describe('a refund as updates', () => {
  it('reaches the merchant socket twice (pending, then succeeded) and queues a callback for each, carrying the same transaction', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 1_000, undefined, { callbackURL: 'http://127.0.0.1:9/hooks' });
    const paid = (await t.client.get(transactionNumber)).body;
    const socket = await t.socket({ headers: bearer(t.merchant.apiKey) });
    socket.send({ type: 'subscribe', transactionNumber });
    await socket.next(isSubscribed);

    const refunded = await t.client.refund(transactionNumber, { amount: 250, description: 'cracked mug' });
    expect(refunded.status).toBe(200);
    const created = await socket.next((m) => isUpdate(m) && m.sequence === paid.sequence + 1);
    const finished = await socket.next((m) => isUpdate(m) && m.sequence === paid.sequence + 2);
    if (!isUpdate(created) || !isUpdate(finished)) throw new Error('not updates');
    expect(created.transaction).toMatchObject({ status: Status.Approved, refundedCents: 0, refundableCents: 750 });
    expect(created.transaction.refunds).toMatchObject([{ amountCents: 250, status: 'pending', description: 'cracked mug' }]);
    expect(finished.transaction).toEqual(refunded.body.transaction);
    expect(finished.transaction).toMatchObject({ status: Status.PartiallyRefunded, refundedCents: 250, refundableCents: 750 });

    // The callbacks: one delivery per update, each carrying that update's transaction object.
    const deliveries = await t.database.sql<{ sequence: number; payload: string }[]>`
      select d.sequence, e.payload from callback_deliveries d join transaction_events e on e.id = d.event_id
      join transactions t on t.id = d.transaction_id
      where t.transaction_number = ${transactionNumber} and d.sequence > ${paid.sequence} order by d.sequence`;
    expect(deliveries.map((d) => d.sequence)).toEqual([paid.sequence + 1, paid.sequence + 2]);
    const bodies = deliveries.map((d) => TransactionSchema.parse(JSON.parse(d.payload)));
    expect(bodies[0]).toEqual(created.transaction);
    expect(bodies[1]).toEqual(finished.transaction);
  });
});
