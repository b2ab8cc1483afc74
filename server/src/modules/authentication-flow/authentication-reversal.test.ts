import { Status, type RequiresAction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { cardNumbered, consumerPays } from '../../test/merchant-client';
import type { ProcessorRegistry } from '../../processor/processor-registry';
import { PROCESSOR_OPERATIONS } from '../../processor-operations';
import { RecordingProcessor } from '../../test/recording-processor';
import { finishAbandonedProcessorRequests, PROCESSOR_LEASE_MS } from '../processor-requests';
import { failAuthentication } from './authentication-flow.service';

const CHALLENGE = '4000000000003220';
const processor = new RecordingProcessor();
const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Unrecorded Shop', processor });

/** A link paid with a challenge card: the payment waits for the bank; its authentication's id and request key. */
async function waitingPayment(amount: number) {
  const created = (await t.client.init({ amount, currency: 'EUR' })).body;
  const paid = await consumerPays(t.app, created, cardNumbered(CHALLENGE));
  expect(paid.status).toBe(202);
  const action = paid.body as unknown as RequiresAction;
  const authenticationId = new URL(action.action.url).pathname.split('/').pop()!;
  const [row] = await t.database.sql<{ requestKey: string }[]>`select request_key as "requestKey" from authentications where id = ${authenticationId}`;
  return { created, action, authenticationId, requestKey: row!.requestKey };
}

async function requestOf(requestKey: string) {
  const [row] = await t.database.sql<{ state: string; outcome: string | null }[]>`
    select state, outcome from processor_requests where request_key = ${requestKey}`;
  return row!;
}

const flowDeps = () => ({ db: t.database.db, processor, clock: t.app.clock, logger: t.app.logger, env: t.app.env });

/** The processor request worker, as it runs `ms` from now. */
function workerAt(ms: number): Promise<number> {
  return finishAbandonedProcessorRequests(flowDeps(), PROCESSOR_OPERATIONS, new Date(t.app.clock.now().getTime() + ms));
}

const times = (keys: string[], key: string) => keys.filter((k) => k === key).length;

describe('an approval after 3-D Secure that cannot be recorded', () => {
  it('is reversed at the processor, and the payment ends failed, never charged', async () => {
    const { created, action, requestKey } = await waitingPayment(40);
    // The recording of the bank's yes fails (as a lost database would make it): the row never reads authenticated.
    await t.database.sql.unsafe(`
      create function test_refuse_authenticated() returns trigger language plpgsql as $$
        begin raise exception 'test: the recording failed'; end $$;
      create trigger test_refuse_authenticated before update on authentications for each row
        when (new.state = 'authenticated') execute function test_refuse_authenticated();`);
    try {
      const done = await t.app.request(new URL(action.action.url).pathname, { body: { result: 'complete' } });
      expect(done.status).toBe(200);
      expect(((await done.json()) as { outcome: string }).outcome).toBe('failed');
    } finally {
      await t.database.sql.unsafe('drop trigger test_refuse_authenticated on authentications; drop function test_refuse_authenticated();');
    }
    expect(times(processor.reversed, requestKey)).toBe(1);
    expect(await requestOf(requestKey)).toEqual({ state: 'done', outcome: 'reversed' });
    const after = (await t.client.get(created.TransactionNumber)).body;
    expect(after.status).not.toBe(Status.Approved);
    expect(after.status).not.toBe(Status.AwaitingAuthentication);
    expect(after.payments.filter((p) => p.status === 'succeeded')).toEqual([]);
  });
});

describe("the reversal of an authentication's payment", () => {
  it('uses the processor found before the end: no second lookup after the failure committed', async () => {
    const { authenticationId, requestKey } = await waitingPayment(41);
    let lookups = 0;
    const registry: ProcessorRegistry = {
      forMerchant: async () => {
        // A second lookup fails as a lost database would, after the failure committed.
        if (++lookups > 1) throw new Error('test: connection terminated');
        return processor;
      },
      forget: () => undefined,
    };
    const deps = { db: t.database.db, processor, processors: registry, clock: t.app.clock, logger: t.app.logger, env: t.app.env };
    expect((await failAuthentication(deps, authenticationId)).ended).toBe(true);
    expect(times(processor.reversed, requestKey)).toBe(1);
    expect(await requestOf(requestKey)).toEqual({ state: 'done', outcome: 'reversed' });
  });

  it('not answered once, is made by the worker when its lease ends, once', async () => {
    const { created, authenticationId, requestKey } = await waitingPayment(42);
    processor.failingReversals = 1;
    const cancelled = await failAuthentication(flowDeps(), authenticationId);
    expect(cancelled.ended).toBe(true);
    expect(times(processor.reversed, requestKey)).toBe(0);
    expect(await requestOf(requestKey)).toEqual({ state: 'in_flight', outcome: 'requires_action' });
    // Before its lease ends the worker leaves it to the request that reversed it.
    await workerAt(PROCESSOR_LEASE_MS / 2);
    expect(times(processor.reversed, requestKey)).toBe(0);
    const [kept] = await t.database.sql<{ reference: string }[]>`
      select processor_reference as reference from authentications where id = ${authenticationId}`;
    await workerAt(PROCESSOR_LEASE_MS + 1);
    expect(times(processor.reversed, requestKey)).toBe(1);
    // The worker names the payment as the authentication kept it (a connector that lost it in a restart needs it).
    expect(processor.reversalReferences.at(-1)).toBe(kept!.reference);
    expect(await requestOf(requestKey)).toMatchObject({ state: 'done', outcome: 'reversed' });
    // Done: never reversed again, and the books still show the decline.
    await workerAt(100 * PROCESSOR_LEASE_MS);
    expect(times(processor.reversed, requestKey)).toBe(1);
    expect((await t.client.get(created.TransactionNumber)).body).toMatchObject({ status: Status.Declined, lastDeclineCode: 'authentication_failed' });
  });

  it('never answered, is set aside as needs_review for an operator after PROCESSOR_REQUEST_GIVE_UP_S', async () => {
    const { authenticationId, requestKey } = await waitingPayment(43);
    processor.failingReversals = 1_000;
    try {
      expect((await failAuthentication(flowDeps(), authenticationId)).ended).toBe(true);
      await workerAt(PROCESSOR_LEASE_MS + 1);
      expect(await requestOf(requestKey)).toMatchObject({ state: 'in_flight' });
      await workerAt(t.app.env.PROCESSOR_REQUEST_GIVE_UP_S * 1000 + 100 * PROCESSOR_LEASE_MS);
      expect(await requestOf(requestKey)).toMatchObject({ state: 'needs_review' });
      const [aside] = await t.database.sql<{ lastError: string }[]>`select last_error as "lastError" from processor_requests where request_key = ${requestKey}`;
      expect(aside!.lastError).toMatch(/not answered/);
    } finally {
      processor.failingReversals = 0;
    }
    expect(times(processor.reversed, requestKey)).toBe(0);
  });
});
