import { Status } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { authorizedHold, codeOf } from '../../test/merchant-client';
import { RecordingProcessor } from '../../test/recording-processor';
import { sweepDue } from '../expiry/expiry';

/**
 * An expired authorization with captures may be re-authorized, but not while a refund of those captures waits for
 * the processor: its outcome moves the status to 13 or 14, and a new hold would then sit on a refunded transaction.
 */
const processor = new RecordingProcessor();
const t = useTestApp({ env: UNTHROTTLED, processor });

async function books(transactionNumber: string) {
  const [row] = await t.database.sql<{ status: number; authorized: number; released: number; inFlight: number }[]>`
    select status, authorized_cents::int as authorized, released_cents::int as released, refunds_in_flight_cents::int as "inFlight"
    from transactions where transaction_number = ${transactionNumber}`;
  return row!;
}

describe('re-authorizing while a refund is in flight', () => {
  it('answers 409 saying a refund is in flight, and places no new hold', async () => {
    const hold = await authorizedHold(t.app, t.client, 1_000);
    expect((await t.client.pay({ token: hold.token, amount: 400 })).status).toBe(200);
    const afterExpiry = new Date(Date.parse(hold.transaction.authorization!.expiresAt!) + 1_000);
    await sweepDue({ db: t.database.db, processor, env: t.app.env, baseUrl: t.app.env.PUBLIC_BASE_URL, clock: t.app.clock, logger: t.app.logger }, afterExpiry);
    expect(await books(hold.transactionNumber)).toMatchObject({ status: Status.Expired, authorized: 1_000, released: 600 });

    // The refund reaches the processor and waits there for its answer; later calls are answered at once.
    const gate = processor.holdAnswers();
    const refunding = t.client.refund(hold.transactionNumber, { amount: 400 });
    await processor.refundsCalled(1);
    gate.passNewCalls();
    const before = await books(hold.transactionNumber);
    expect(before).toMatchObject({ status: Status.Expired, inFlight: 400 });

    const refused = await t.client.authorize({ token: hold.token, amount: 500 });
    expect(refused.status).toBe(409);
    expect(codeOf(refused.body)).toBe('authorization_not_active');
    const detail = (refused.body as unknown as { detail: string }).detail;
    expect(detail).toMatch(/refund of 400 cents is still waiting for the processor/);
    expect(detail).not.toMatch(/status 11/);
    expect(processor.reauthorizations).toBe(0);
    expect(await books(hold.transactionNumber)).toEqual(before);

    gate.answer();
    expect((await refunding).status).toBe(200);
    expect(await books(hold.transactionNumber)).toMatchObject({ status: Status.Refunded, authorized: 1_000, inFlight: 0 });
  });
});
