import type { WsServerMessage } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { RealtimeEvent } from './realtime-event';
import type { StoredEvent } from './realtime.queries';
import { TransactionSubscription, type EventStore, type SubscriptionSink } from './transaction-subscription';

const NUMBER = 'TXN0000000000001';
const logger = createLogger({ level: 'silent' });

/** The events table of one transaction; reads can be held open to let live events arrive meanwhile. */
class FakeStore implements EventStore {
  events: StoredEvent[] = [];
  reads = 0;
  gate: Promise<void> | null = null;
  fail = false;

  constructor(
    public sequence: number,
    count = sequence,
  ) {
    for (let s = 1; s <= count; s++) this.events.push(stored(s));
  }

  async findVisible(transactionNumber: string) {
    return transactionNumber === NUMBER ? { transactionId: 'tx-1', sequence: this.sequence } : null;
  }

  async eventsAfter(_transactionId: string, afterSequence: number, limit: number) {
    this.reads += 1;
    // The snapshot is taken when the read starts, as a SELECT's is.
    const snapshot = this.events.filter((e) => e.sequence > afterSequence).slice(0, limit);
    if (this.gate) await this.gate;
    if (this.fail) throw new Error('database gone');
    return snapshot;
  }

  /** A change commits: the store has it; the caller decides whether its notification arrives. */
  commit(): RealtimeEvent {
    this.sequence += 1;
    const event = stored(this.sequence);
    this.events.push(event);
    return live(event);
  }
}

function stored(sequence: number): StoredEvent {
  return { eventId: `ev-${sequence}`, sequence, payload: JSON.stringify({ TransactionNumber: NUMBER, sequence }) };
}

function live(event: StoredEvent): RealtimeEvent {
  return new RealtimeEvent(event.eventId, NUMBER, event.sequence, event.payload);
}

class RecordingSink implements SubscriptionSink {
  readonly view = 'full' as const;
  readonly sent: WsServerMessage[] = [];
  sendEvent(event: RealtimeEvent): boolean {
    this.sent.push(JSON.parse(event.message(this.view)) as WsServerMessage);
    return true;
  }
  sendMessage(message: WsServerMessage): boolean {
    this.sent.push(message);
    return true;
  }
  /** What the client saw: sequences, with `S<n>` for `subscribed` (n replayed) and `E:<code>` for errors. */
  get trace(): (number | string)[] {
    return this.sent.map((m) =>
      m.type === 'transaction.updated' ? m.sequence : m.type === 'subscribed' ? `S${m.replayed}` : m.type === 'error' ? `E:${m.code}` : m.type,
    );
  }
}

function subscription(store: FakeStore, options = { pageSize: 100, maxBuffered: 100 }) {
  const sink = new RecordingSink();
  const ended: TransactionSubscription[] = [];
  const sub = new TransactionSubscription(NUMBER, sink, store, options, logger, (s) => ended.push(s));
  return { sub, sink, ended };
}

/** Lets the subscription run until its store read has started (and taken its snapshot). */
async function readStarted(store: FakeStore, reads = 1): Promise<void> {
  for (let i = 0; i < 100 && store.reads < reads; i++) await Promise.resolve();
  if (store.reads < reads) throw new Error('the store read did not start');
}

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('TransactionSubscription', () => {
  it('replays after afterSequence, then sends what arrived during the replay without duplicates', async () => {
    const store = new FakeStore(3);
    const { sub, sink } = subscription(store);
    const held = gate();
    store.gate = held.promise;
    const started = sub.start(1);
    await readStarted(store);
    // Commits during the read: 4 is after the read's snapshot; 3's notification arrives late, though the read has it.
    sub.accept(live(stored(3)));
    sub.accept(store.commit());
    sub.accept(store.commit());
    held.open();
    await started;
    sub.accept(live(stored(5)));
    sub.accept(store.commit());
    expect(sink.trace).toEqual([2, 3, 'S2', 4, 5, 6]);
  });

  it('without afterSequence starts live at the current sequence', async () => {
    const store = new FakeStore(5);
    const { sub, sink } = subscription(store);
    const held = gate();
    store.gate = held.promise;
    const started = sub.start(undefined);
    await readStarted(store);
    sub.accept(live(stored(5)));
    sub.accept(store.commit());
    held.open();
    await started;
    expect(sink.trace).toEqual(['S0', 6]);
  });

  it('reads the store again when a live event skips a sequence (a lost notification)', async () => {
    const store = new FakeStore(2);
    const { sub, sink } = subscription(store);
    await sub.start(2);
    store.commit(); // 3: notification lost
    sub.accept(store.commit()); // 4 arrives: 3 is missing
    await new Promise((resolve) => setTimeout(resolve, 0));
    sub.accept(store.commit());
    expect(sink.trace).toEqual(['S0', 3, 4, 5]);
  });

  it('catchUp (the listener reconnected) sends what was committed meanwhile', async () => {
    const store = new FakeStore(1);
    const { sub, sink } = subscription(store);
    await sub.start(0);
    store.commit();
    store.commit();
    await sub.catchUp();
    sub.accept(live(stored(3)));
    expect(sink.trace).toEqual([1, 'S1', 2, 3]);
  });

  it('pages through a long replay in order', async () => {
    const store = new FakeStore(7);
    const { sub, sink } = subscription(store, { pageSize: 2, maxBuffered: 100 });
    await sub.start(0);
    expect(sink.trace).toEqual([1, 2, 3, 4, 5, 6, 7, 'S7']);
    expect(store.reads).toBe(4);
  });

  it('drops an overflowing buffer and reads the store instead', async () => {
    const store = new FakeStore(1);
    const { sub, sink } = subscription(store, { pageSize: 100, maxBuffered: 2 });
    const held = gate();
    store.gate = held.promise;
    const started = sub.start(0);
    await readStarted(store);
    for (let i = 0; i < 5; i++) sub.accept(store.commit());
    store.gate = null;
    held.open();
    await started;
    expect(sink.trace).toEqual([1, 2, 3, 4, 5, 6, 'S6']);
  });

  it('answers not_found for a transaction the audience cannot see', async () => {
    const store = new FakeStore(1);
    const sink = new RecordingSink();
    const ended: TransactionSubscription[] = [];
    const sub = new TransactionSubscription('OTHER', sink, store, { pageSize: 10, maxBuffered: 10 }, logger, (s) => ended.push(s));
    await sub.start(0);
    expect(sink.trace).toEqual(['E:not_found']);
    expect(ended).toEqual([sub]);
    expect(sub.closed).toBe(true);
  });

  it('ends with internal_error when the store fails, so the client resubscribes', async () => {
    const store = new FakeStore(2);
    store.fail = true;
    const { sub, sink, ended } = subscription(store);
    await sub.start(0);
    expect(sink.trace).toEqual(['E:internal_error']);
    expect(ended).toEqual([sub]);
    sub.accept(store.commit());
    expect(sink.trace).toEqual(['E:internal_error']);
  });

  it('sends nothing once closed, even when its replay finishes later', async () => {
    const store = new FakeStore(3);
    const { sub, sink } = subscription(store);
    const held = gate();
    store.gate = held.promise;
    const started = sub.start(0);
    await readStarted(store);
    sub.close();
    held.open();
    await started;
    expect(sink.trace).toEqual([]);
  });
});
