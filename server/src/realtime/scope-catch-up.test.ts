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
import { eventsInScopeSince } from './realtime.queries';
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
  const emptyStore: ScopeEventStore = { eventsInScopeSince: () => Promise.resolve([]) };

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

describe('the events bridge after its listener reconnects', () => {
  const t = useTestApp();

  it('sends scope subscribers the updates whose notifications were lost, once, even when a notification arrives late', async () => {
    const { database, app, client, merchant } = t;
    const hub = new Hub();
    const listener = new ControlledListener();
    const bridge = await startEventsBridge({ bus: postgresBus({ db: database.db, listener, logger }), db: database.db, hub, logger, clock: app.clock });
    const sink = new RecordingSink();
    const { merchantId } = merchant;
    const store: ScopeEventStore = { eventsInScopeSince: (filter, since, limit) => eventsInScopeSince(database.db, filter, since, limit) };
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
