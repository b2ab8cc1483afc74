/**
 * Scope subscriptions after a lost listener connection: the events bridge runs on a listener this test controls
 * (so a notification can be lost on purpose), against the real store.
 */
import type { WsServerMessage } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { useTestApp } from '../test/harness';
import type { ScopeFilter } from './audience';
import { startEventsBridge } from './events-bridge';
import { postgresBus } from '../update-bus';
import { Hub } from './hub';
import { RealtimeEvent } from './realtime-event';
import { eventsInScopeSince, transactionEventsSince } from './realtime.queries';
import { CATCH_UP_MARGIN_MS, ScopeSubscription, type ScopeEventStore } from './scope-subscription';
import type { SubscriptionSink } from './transaction-subscription';
import { EVENTS_CHANNEL, type EventNotice } from '../event-notice';

const logger = createLogger({ level: 'silent' });

class RecordingSink implements SubscriptionSink {
  readonly view = 'full' as const;
  readonly updates: { transactionNumber: string; sequence: number }[] = [];
  followed = new Set<string>();
  sendEvent(event: RealtimeEvent): boolean {
    const message = JSON.parse(event.message(this.view)) as WsServerMessage;
    if (message.type === 'transaction.updated') this.updates.push({ transactionNumber: message.transaction.TransactionNumber, sequence: message.sequence });
    return true;
  }
  sendMessage(): boolean {
    return true;
  }
  follows(transactionNumber: string): boolean {
    return this.followed.has(transactionNumber);
  }
}

/** A LISTEN the test drives: it decides which notifications arrive and when the connection "comes back". */
class ControlledListener {
  onNotify: ((text: string) => void) | null = null;
  onListen: (() => void) | null = null;
  listen(channel: string, onNotify: (text: string) => void, onListen?: () => void) {
    expect(channel).toBe(EVENTS_CHANNEL);
    this.onNotify = onNotify;
    this.onListen = onListen ?? null;
    onListen?.();
    return Promise.resolve({ unlisten: () => Promise.resolve() });
  }
  reconnect(): void {
    this.onListen?.();
  }
}

const eventAt = (transactionNumber: string, sequence: number) =>
  new RealtimeEvent(`e-${transactionNumber}-${sequence}`, transactionNumber, sequence, JSON.stringify({ TransactionNumber: transactionNumber }));

describe('a scope subscription', () => {
  const filter: ScopeFilter = { scope: 'merchant', merchantId: 'm', branchId: null };
  const emptyStore: ScopeEventStore = { eventsInScopeSince: () => Promise.resolve([]), transactionEventsSince: () => Promise.resolve([]) };

  it('sends each update of a transaction once, and never one older than the last it sent', () => {
    const sink = new RecordingSink();
    const sub = new ScopeSubscription(filter, sink, emptyStore, logger, new Date(0));
    for (const [number, sequence] of [
      ['A', 1],
      ['A', 2],
      ['A', 2],
      ['B', 1],
      ['A', 1],
      ['A', 3],
    ] as const)
      sub.deliver(eventAt(number, sequence));
    expect(sink.updates.map((u) => `${u.transactionNumber}${u.sequence}`)).toEqual(['A1', 'A2', 'B1', 'A3']);
  });

  it('catches up from the later of `since` and a margin before its own start, and leaves transactions the connection follows to their subscription', async () => {
    const asked: Date[] = [];
    const store: ScopeEventStore = {
      transactionEventsSince: () => Promise.resolve([]),
      eventsInScopeSince: (_filter, since) => {
        asked.push(since);
        return Promise.resolve([
          { eventId: 'x1', transactionNumber: 'X', sequence: 1, payload: '{"TransactionNumber":"X"}' },
          { eventId: 'y1', transactionNumber: 'Y', sequence: 1, payload: '{"TransactionNumber":"Y"}' },
        ]);
      },
    };
    const sink = new RecordingSink();
    sink.followed.add('Y');
    const subscribedAt = new Date('2026-01-01T00:10:00Z');
    const sub = new ScopeSubscription(filter, sink, store, logger, subscribedAt);
    await sub.catchUp(new Date('2026-01-01T00:00:00Z'));
    await sub.catchUp(new Date('2026-01-01T00:20:00Z'));
    expect(asked).toEqual([new Date(subscribedAt.getTime() - CATCH_UP_MARGIN_MS), new Date('2026-01-01T00:20:00Z')]);
    expect(sink.updates).toEqual([{ transactionNumber: 'X', sequence: 1 }]);
  });
});

describe('a scope subscription filling a skipped sequence from the store', () => {
  const filter: ScopeFilter = { scope: 'merchant', merchantId: 'm', branchId: null };
  const subscribedAt = new Date('2026-01-01T00:10:00Z');
  /** A store of transaction A's events 1 to 4 (1 created before the subscription), whose reads the test releases. */
  const storeOf = () => {
    const asked: { after: number; since: Date }[] = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const stored = [1, 2, 3, 4].map((sequence) => ({
      eventId: `e-A-${sequence}`,
      sequence,
      payload: JSON.stringify({ TransactionNumber: 'A' }),
      createdAt: new Date(subscribedAt.getTime() + (sequence - 2) * 1000),
    }));
    const store: ScopeEventStore = {
      eventsInScopeSince: () => Promise.resolve([]),
      transactionEventsSince: async (transactionId, after, since) => {
        expect(transactionId).toBe('tx-A');
        asked.push({ after, since });
        await released;
        return stored.filter((e) => e.sequence > after && e.createdAt >= since);
      },
    };
    return { store, asked, release };
  };
  const sent = (sink: RecordingSink) => sink.updates.map((u) => `${u.transactionNumber}${u.sequence}`);

  it('reads the lost updates after the last one it sent, holds what arrives meanwhile, and sends them all in order', async () => {
    const { store, asked, release } = storeOf();
    const sink = new RecordingSink();
    const sub = new ScopeSubscription(filter, sink, store, logger, subscribedAt);
    sub.accept(eventAt('A', 1), 'tx-A');
    // 2 and 3 were lost; 4 arrives, then 3 late while the store is read.
    sub.accept(eventAt('A', 4), 'tx-A');
    sub.accept(eventAt('A', 3), 'tx-A');
    expect(sent(sink)).toEqual(['A1']);
    release();
    await expect.poll(() => sent(sink)).toEqual(['A1', 'A2', 'A3', 'A4']);
    expect(asked).toEqual([{ after: 1, since: new Date(0) }]);
    // A copy of 2 arriving now (another instance's, or the sweep's) is not sent again.
    sub.accept(eventAt('A', 2), 'tx-A');
    expect(sent(sink)).toEqual(['A1', 'A2', 'A3', 'A4']);
  });

  it('for a transaction it has sent nothing of, reads only the updates made since it subscribed', async () => {
    const { store, asked, release } = storeOf();
    release();
    const sink = new RecordingSink();
    const sub = new ScopeSubscription(filter, sink, store, logger, subscribedAt);
    // 3 arrives before 2 (published by two instances after their commits); 1 predates the subscription.
    sub.accept(eventAt('A', 3), 'tx-A');
    await expect.poll(() => sent(sink)).toEqual(['A2', 'A3']);
    expect(asked).toEqual([{ after: 0, since: subscribedAt }]);
    sub.accept(eventAt('A', 2), 'tx-A');
    sub.accept(eventAt('A', 4), 'tx-A');
    expect(sent(sink)).toEqual(['A2', 'A3', 'A4']);
    expect(asked).toHaveLength(1);
  });

  it('sends what it holds, in order, when the store cannot be read', async () => {
    const sink = new RecordingSink();
    const failing: ScopeEventStore = {
      eventsInScopeSince: () => Promise.resolve([]),
      transactionEventsSince: () => Promise.reject(new Error('database down')),
    };
    const sub = new ScopeSubscription(filter, sink, failing, logger, subscribedAt);
    sub.accept(eventAt('A', 1), 'tx-A');
    sub.accept(eventAt('A', 3), 'tx-A');
    await expect.poll(() => sent(sink)).toEqual(['A1', 'A3']);
  });
});

describe('the events bridge after its listener reconnects', () => {
  const t = useTestApp();

  it('sends scope subscribers the updates whose notifications were lost, once, even when a notification arrives late', async () => {
    const { database, app, client, merchant } = t;
    const hub = new Hub();
    const listener = new ControlledListener();
    const bridge = await startEventsBridge({ bus: postgresBus({ db: database.db, listener, logger }), db: database.db, hub, logger, clock: app.clock });
    const sink = new RecordingSink();
    const { merchantId } = merchant;
    const store: ScopeEventStore = {
      eventsInScopeSince: (filter, since, limit) => eventsInScopeSince(database.db, filter, since, limit),
      transactionEventsSince: (transactionId, after, since, limit) => transactionEventsSince(database.db, transactionId, after, since, limit),
    };
    const subscription = new ScopeSubscription({ scope: 'merchant', merchantId, branchId: null }, sink, store, logger, app.clock.now());
    hub.addScope(subscription);
    try {
      // The listener is down: this transaction's notification never arrives.
      const created = await client.init({ amount: 12.5, currency: 'USD', methodType: 'sale' });
      expect(created.status).toBe(200);
      expect(sink.updates).toEqual([]);

      listener.reconnect();
      await expect.poll(() => sink.updates).toEqual([{ transactionNumber: created.body.TransactionNumber, sequence: 1 }]);

      // The lost notification turns up after all (or another instance's copy of it): not sent twice.
      const [event] = await database.sql<{ id: string; transactionId: string }[]>`
        select id, transaction_id as "transactionId" from transaction_events where sequence = 1 and transaction_id = (
          select id from transactions where transaction_number = ${created.body.TransactionNumber})`;
      const notice: EventNotice = {
        eventId: event!.id,
        transactionId: event!.transactionId,
        transactionNumber: created.body.TransactionNumber,
        merchantId,
        branchId: null,
        deviceId: null,
        sequence: 1,
        callback: false,
      };
      listener.onNotify!(JSON.stringify(notice));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sink.updates).toHaveLength(1);
    } finally {
      hub.removeScope(subscription);
      await bridge.stop();
    }
  });
});
