import { Status } from '@svc/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { authorizedHold, codeOf } from '../../test/merchant-client';
import { RecordingProcessor } from '../../test/recording-processor';

/**
 * A capture's own guard, to the cent: what is left on the hold (captures in flight counted) fits, one cent more is
 * 409 amount_exceeds_available. This file's database has no overdraft CHECK, so the answer is the service's own,
 * never the constraint's 500 (or, were the guard off by one, an overdraft).
 */
const processor = new RecordingProcessor();
const t = useTestApp({ env: UNTHROTTLED, processor });

beforeAll(async () => {
  await t.database.sql`alter table transactions drop constraint transactions_auth_no_overdraft`;
});

async function books(transactionNumber: string) {
  const [row] = await t.database.sql<{ status: number; captured: number; pending: number }[]>`
    select status, captured_cents::int as captured, capture_pending_cents::int as pending from transactions where transaction_number = ${transactionNumber}`;
  return row!;
}

const detailOf = (body: unknown) => (body as { detail: string }).detail;

describe('a capture at the edge of the hold', () => {
  it('the last cent fits; one cent more is 409 from the service, and nothing moves', async () => {
    const hold = await authorizedHold(t.app, t.client, 1_000);
    expect((await t.client.pay({ token: hold.token, amount: 600 })).status).toBe(200);

    const refused = await t.client.pay({ token: hold.token, amount: 401 });
    expect(refused.status).toBe(409);
    expect(codeOf(refused.body)).toBe('amount_exceeds_available');
    expect(detailOf(refused.body)).toMatch(/^Only 400 cents are still available/);
    expect(await books(hold.transactionNumber)).toEqual({ status: Status.PartiallyCaptured, captured: 600, pending: 0 });

    expect((await t.client.pay({ token: hold.token, amount: 400 })).status).toBe(200);
    expect(await books(hold.transactionNumber)).toEqual({ status: Status.Captured, captured: 1_000, pending: 0 });
  });

  it('a capture in flight counts: what it leaves fits, one cent more is 409', async () => {
    const hold = await authorizedHold(t.app, t.client, 1_000);
    const gate = processor.holdAnswers();
    const captures = processor.captures;
    const first = t.client.pay({ token: hold.token, amount: 300 });
    await processor.capturesCalled(captures + 1);
    gate.passNewCalls();

    const refused = await t.client.pay({ token: hold.token, amount: 701 });
    expect(refused.status).toBe(409);
    expect(codeOf(refused.body)).toBe('amount_exceeds_available');
    expect(detailOf(refused.body)).toMatch(/^Only 700 cents .*\(300 more are being captured\)/);
    expect(await books(hold.transactionNumber)).toEqual({ status: Status.Authorized, captured: 0, pending: 300 });

    expect((await t.client.pay({ token: hold.token, amount: 700 })).status).toBe(200);
    gate.answer();
    expect((await first).status).toBe(200);
    expect(await books(hold.transactionNumber)).toEqual({ status: Status.Captured, captured: 1_000, pending: 0 });
  });
});
