import { Status } from '@svc/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { authorizedHold, codeOf, paidSale } from '../../test/merchant-client';
import { RecordingProcessor } from '../../test/recording-processor';

/**
 * A refund's own guard, to the cent: what is refundable (settled, less refunded and refunds in flight) fits, one cent
 * more is 409 amount_exceeds_refundable. This file's database has no CHECK keeping refunds within what was settled,
 * so the answer is the service's own, never the constraint's 500 (or, were the guard off by one, an over-refund).
 */
const processor = new RecordingProcessor();
const t = useTestApp({ env: UNTHROTTLED, processor });

beforeAll(async () => {
  await t.database.sql`alter table transactions drop constraint transactions_refunds_within_settled`;
});

async function books(transactionNumber: string) {
  const [row] = await t.database.sql<{ status: number; refunded: number; inFlight: number }[]>`
    select status, refunded_cents::int as refunded, refunds_in_flight_cents::int as "inFlight" from transactions where transaction_number = ${transactionNumber}`;
  return row!;
}

/** One cent more than `left` is refused by the service, naming what is left, and nothing moves; `left` itself fits. */
async function expectEdge(transactionNumber: string, left: number) {
  const before = await books(transactionNumber);
  const refused = await t.client.refund(transactionNumber, { amount: left + 1 });
  expect(refused.status).toBe(409);
  expect(codeOf(refused.body)).toBe('amount_exceeds_refundable');
  expect((refused.body as unknown as { detail: string }).detail).toMatch(new RegExp(`^Only ${left} cents are refundable`));
  expect(await books(transactionNumber)).toEqual(before);
  return t.client.refund(transactionNumber, { amount: left });
}

describe('a refund at the edge of what was settled', () => {
  it('of a sale: the last cent fits, one cent more is 409 from the service', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 1_000);
    expect((await t.client.refund(transactionNumber, { amount: 400 })).status).toBe(200);
    expect((await expectEdge(transactionNumber, 600)).status).toBe(200);
    expect(await books(transactionNumber)).toEqual({ status: Status.Refunded, refunded: 1_000, inFlight: 0 });
  });

  it("of an authorization's captures once its hold ended", async () => {
    const hold = await authorizedHold(t.app, t.client, 1_000);
    expect((await t.client.pay({ token: hold.token, amount: 700 })).status).toBe(200);
    expect((await t.client.closeAuth(hold.transactionNumber)).status).toBe(200);
    expect((await expectEdge(hold.transactionNumber, 700)).status).toBe(200);
    expect(await books(hold.transactionNumber)).toEqual({ status: Status.Refunded, refunded: 700, inFlight: 0 });
  });

  it('a refund in flight counts: what it leaves fits, one cent more is 409', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 1_000);
    const gate = processor.holdAnswers();
    const calls = processor.refunds.length;
    const first = t.client.refund(transactionNumber, { amount: 300 });
    await processor.refundsCalled(calls + 1);
    gate.passNewCalls();
    expect((await expectEdge(transactionNumber, 700)).status).toBe(200);
    gate.answer();
    expect((await first).status).toBe(200);
    expect(await books(transactionNumber)).toEqual({ status: Status.Refunded, refunded: 1_000, inFlight: 0 });
  });
});
