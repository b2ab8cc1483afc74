import { Status, type RequiresAction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { cardNumbered, consumerPays } from '../../test/merchant-client';
import type { ProcessorRegistry } from '../../processor/processor-registry';
import { RecordingProcessor } from '../../test/recording-processor';
import { failAuthentication } from './authentication-flow.service';

const CHALLENGE = '4000000000003220';
const processor = new RecordingProcessor();
const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Unrecorded Shop', processor });

describe('an approval after 3-D Secure that cannot be recorded', () => {
  it('is reversed at the processor, and the payment ends failed, never charged', async () => {
    const created = (await t.client.init({ amount: 40, currency: 'EUR' })).body;
    const paid = await consumerPays(t.app, created, cardNumbered(CHALLENGE));
    expect(paid.status).toBe(202);
    const action = paid.body as unknown as RequiresAction;
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
    expect(processor.reversed).toHaveLength(1);
    const after = (await t.client.get(created.TransactionNumber)).body;
    expect(after.status).not.toBe(Status.Approved);
    expect(after.status).not.toBe(Status.AwaitingAuthentication);
    expect(after.payments.filter((p) => p.status === 'succeeded')).toEqual([]);
  });
});

describe("the reversal of an authentication's payment", () => {
  it("a database failure finding the merchant's processor for the reversal is thrown, never taken for the processor's silence", async () => {
    const created = (await t.client.init({ amount: 41, currency: 'EUR' })).body;
    const paid = await consumerPays(t.app, created, cardNumbered(CHALLENGE));
    const authenticationId = new URL((paid.body as unknown as RequiresAction).action.url).pathname.split('/').pop()!;
    let lookups = 0;
    const registry: ProcessorRegistry = {
      // The first lookup (the decline's processor name) answers; the reversal's fails as a lost database would.
      forMerchant: async () => {
        if (++lookups > 1) throw new Error('test: connection terminated');
        return processor;
      },
    };
    const reversals = processor.reversed.length;
    const deps = { db: t.database.db, processor, processors: registry, clock: t.app.clock, logger: t.app.logger, env: t.app.env };
    await expect(failAuthentication(deps, authenticationId)).rejects.toThrow(/connection terminated/);
    expect(processor.reversed.length).toBe(reversals);
  });
});
