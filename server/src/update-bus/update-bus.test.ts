/**
 * The update bus and the realtime outbox against a real PostgreSQL (and a NATS server of the test's own): an update
 * is published once its change committed and leaves the outbox; what an instance left behind is published by the
 * sweep; a bus that refuses leaves it there; and a subscription that lost its bus reports a gap once it is back.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { useTestApp } from '../test/harness';
import { NATS_SERVER_BINARY, NATS_SKIP_LINE, startNatsServer } from '../test/nats-server';
import type { EventNotice } from '../event-notice';
import { natsBus } from './nats-bus';
import { startPublicationSweep } from './outbox-publisher';
import { postgresBus } from './postgres-bus';
import type { UpdateBus } from './update-bus';

const logger = createLogger({ level: 'silent' });

/** What a subscription heard, in order, and how many gaps it was told of. */
async function heardOn(bus: UpdateBus) {
  const heard = { notices: [] as EventNotice[], gaps: 0 };
  const subscription = await bus.subscribe({ onNotice: (notice) => heard.notices.push(notice), onGap: () => (heard.gaps += 1) });
  return { heard, unsubscribe: () => subscription.unsubscribe() };
}

const noticeOf = (merchantId: string, n: number): EventNotice => ({
  eventId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  transactionId: `tx-${n}`,
  transactionNumber: `T${n}`,
  merchantId,
  branchId: null,
  deviceId: null,
  sequence: 1,
  callback: false,
});

describe('the realtime outbox on the postgres bus', () => {
  const t = useTestApp();
  const outbox = () => t.database.sql<{ event_id: string }[]>`select event_id from event_publications`;

  it('publishes a change once it committed, in sequence order, and empties the outbox', async () => {
    const bus = postgresBus({ db: t.database.db, listener: t.database.listener, logger });
    const { heard, unsubscribe } = await heardOn(bus);
    try {
      const created = await t.client.init({ amount: 10, currency: 'USD', methodType: 'authorize' });
      expect(created.status).toBe(200);
      const number = created.body.TransactionNumber;
      expect((await t.client.cancel(number)).status).toBe(200);
      await expect.poll(() => heard.notices.filter((n) => n.transactionNumber === number).map((n) => n.sequence)).toEqual([1, 2]);
      await expect.poll(async () => (await outbox()).length).toBe(0);
    } finally {
      await unsubscribe();
    }
  });

  it('sweeps what a change committed but its instance never published, and leaves it when the bus refuses', async () => {
    // As after an instance died between its commit and its publication: the row is there, three seconds old.
    const notice = noticeOf(t.merchant.merchantId, 1);
    await t.database.sql`
      insert into event_publications (event_id, merchant_id, notice, created_at)
      values (${notice.eventId}, ${notice.merchantId}, ${JSON.stringify(notice)}, now() - interval '3 seconds')`;
    const refusing: UpdateBus = {
      ...postgresBus({ db: t.database.db, listener: t.database.listener, logger }),
      publish: () => Promise.reject(new Error('bus down')),
    };
    const down = startPublicationSweep({ db: t.database.db, bus: refusing, logger, intervalMs: 60_000 });
    await expect(down.sweepOnce()).rejects.toThrow('bus down');
    await down.stop();
    expect((await outbox()).map((row) => row.event_id)).toEqual([notice.eventId]);

    const bus = postgresBus({ db: t.database.db, listener: t.database.listener, logger });
    const { heard, unsubscribe } = await heardOn(bus);
    const sweep = startPublicationSweep({ db: t.database.db, bus, logger, intervalMs: 60_000 });
    try {
      expect(await sweep.sweepOnce()).toBe(1);
      await expect.poll(() => heard.notices.map((n) => n.eventId)).toEqual([notice.eventId]);
      expect(await outbox()).toEqual([]);
      expect(await sweep.sweepOnce()).toBe(0);
    } finally {
      await sweep.stop();
      await unsubscribe();
    }
  });

  it('leaves a row younger than the grace to the instance that is publishing it', async () => {
    const notice = noticeOf(t.merchant.merchantId, 2);
    await t.database.sql`
      insert into event_publications (event_id, merchant_id, notice) values (${notice.eventId}, ${notice.merchantId}, ${JSON.stringify(notice)})`;
    const sweep = startPublicationSweep({
      db: t.database.db,
      bus: postgresBus({ db: t.database.db, listener: t.database.listener, logger }),
      logger,
      intervalMs: 60_000,
    });
    try {
      expect(await sweep.sweepOnce()).toBe(0);
      expect((await outbox()).map((row) => row.event_id)).toEqual([notice.eventId]);
    } finally {
      await sweep.stop();
      await t.database.sql`delete from event_publications`;
    }
  });
});

describe('the nats bus without its server', () => {
  it('names the servers it cannot reach without the user and password their URLs carry', async () => {
    const url = 'nats://alice:s3cret@127.0.0.1:1,tls://bob:p@ss/word@127.0.0.1:2';
    const refused = await natsBus({ url, logger, name: 'nowhere' }).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toMatch(/^cannot reach the NATS server at nats:\/\/127\.0\.0\.1:1,tls:\/\/127\.0\.0\.1:2: /);
    expect(inspect(refused, { depth: 10 })).not.toMatch(/alice|s3cret|bob|p@ss|word/);
  });
});

if (!NATS_SERVER_BINARY) console.info(`update-bus.test.ts on nats ${NATS_SKIP_LINE}`);

describe.skipIf(!NATS_SERVER_BINARY)('the nats bus', () => {
  it('carries notices in order, and reports a gap once its server is back after a kill', { timeout: 30_000 }, async () => {
    const server = await startNatsServer();
    const publisher = await natsBus({ url: server.url, logger, name: 'publisher' });
    const subscriber = await natsBus({ url: server.url, logger, name: 'subscriber' });
    const { heard, unsubscribe } = await heardOn(subscriber);
    try {
      await publisher.publish([1, 2, 3].map((n) => noticeOf('m', n)));
      await expect.poll(() => heard.notices.map((n) => n.transactionNumber)).toEqual(['T1', 'T2', 'T3']);
      expect(heard.gaps).toBe(0);

      await server.kill();
      await expect.poll(() => subscriber.status().ok).toBe(false);
      await server.restart();
      await expect.poll(() => heard.gaps, { timeout: 10_000 }).toBe(1);
      expect(subscriber.status().ok).toBe(true);
      // Subscribed again on the new server: what is published now arrives.
      await expect.poll(() => publisher.status().ok, { timeout: 10_000 }).toBe(true);
      await publisher.publish([noticeOf('m', 4)]);
      await expect.poll(() => heard.notices.map((n) => n.transactionNumber)).toEqual(['T1', 'T2', 'T3', 'T4']);
    } finally {
      await unsubscribe();
      await publisher.close();
      await subscriber.close();
      await server.stop();
    }
  });

  it('refuses to start when its server cannot be reached, naming it', async () => {
    await expect(natsBus({ url: 'nats://127.0.0.1:1', logger, name: 'nowhere' })).rejects.toThrow('cannot reach the NATS server at nats://127.0.0.1:1');
  });
});
