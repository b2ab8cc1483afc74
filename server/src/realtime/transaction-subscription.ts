import type { WsServerMessage } from '@svc/protocol';
import type { Logger } from '../logger';
import type { ObjectForm } from './audience';
import { RealtimeEvent } from './realtime-event';
import type { StoredEvent } from './realtime.queries';

/** Where a subscription's messages go: its connection. `false` once the connection is closing (closed, slow consumer). */
export interface SubscriptionSink {
  readonly view: ObjectForm;
  /** Sends the event as this sink's view shows it (its frame is built once per event and view, whoever sends it). */
  sendEvent(event: RealtimeEvent): boolean;
  sendMessage(message: WsServerMessage): boolean;
  /** Whether the connection holds a subscription to this one transaction (which then delivers its updates). */
  follows?(transactionNumber: string): boolean;
}

/** The store a subscription reads: whether the audience may see the transaction, and the events after a sequence. */
export interface EventStore {
  findVisible(transactionNumber: string): Promise<{ transactionId: string; sequence: number } | null>;
  eventsAfter(transactionId: string, afterSequence: number, limit: number): Promise<StoredEvent[]>;
}

export interface TransactionSubscriptionOptions {
  /** Events read per replay query. */
  pageSize: number;
  /** Live events held while a replay runs; beyond it they are dropped and read from the store instead. */
  maxBuffered: number;
}

/** Rounds a catch-up re-reads the store when the buffered live events do not continue the sequence (a lost notification). */
const GAP_REREADS = 2;

/**
 * One transaction's updates to one connection, gapless and without duplicates.
 *
 * The subscription is in the hub (receiving live events) BEFORE it reads the store. While it reads (`syncing`),
 * live events are buffered; once the store is exhausted, buffered events at or below the last sequence sent are
 * dropped and the rest follow. Notifications arrive only after their transaction commits, so every event is
 * either visible to the store read or notified after the subscription joined the hub: none falls between.
 * When live, an event that skips a sequence (a notification lost while the listener reconnected) sends the
 * subscription back to the store for the missing ones; so does `catchUp()`.
 */
export class TransactionSubscription {
  #state: 'starting' | 'syncing' | 'live' | 'closed' = 'starting';
  #buffer: RealtimeEvent[] = [];
  #lastSequence = 0;
  #transactionId: string | null = null;
  /** Another store read is wanted after the one running (the buffer overflowed, or the listener reconnected). */
  #readAgain = false;

  constructor(
    readonly transactionNumber: string,
    readonly sink: SubscriptionSink,
    private readonly store: EventStore,
    private readonly options: TransactionSubscriptionOptions,
    private readonly logger: Logger,
    /** Called when the subscription ends by itself (not found, store failure) so its owner forgets it. */
    private readonly onEnded: (subscription: TransactionSubscription) => void,
  ) {}

  get closed(): boolean {
    return this.#state === 'closed';
  }

  /** For tests and logs: the last sequence sent. */
  get lastSequence(): number {
    return this.#lastSequence;
  }

  /**
   * Checks that the audience may see the transaction, replays the events after `afterSequence` (without it, none:
   * live updates from the current sequence on), sends `subscribed`, then goes live. Call after joining the hub.
   */
  async start(afterSequence: number | undefined): Promise<void> {
    try {
      const found = await this.store.findVisible(this.transactionNumber);
      if (this.closed) return;
      if (!found) {
        this.#end('not_found', 'No such transaction for this credential.');
        return;
      }
      this.#transactionId = found.transactionId;
      this.#lastSequence = afterSequence ?? found.sequence;
      await this.#sync((replayed) => this.sink.sendMessage({ type: 'subscribed', transactionNumber: this.transactionNumber, replayed }));
    } catch (error) {
      this.#fail(error);
    }
  }

  /** A live event from the hub, in notification order. */
  accept(event: RealtimeEvent): void {
    switch (this.#state) {
      case 'closed':
        return;
      case 'starting':
      case 'syncing':
        if (this.#buffer.length >= this.options.maxBuffered) {
          this.#buffer = [];
          this.#readAgain = true;
        } else {
          this.#buffer.push(event);
        }
        return;
      case 'live':
        if (event.sequence <= this.#lastSequence) return;
        if (event.sequence === this.#lastSequence + 1) {
          this.#deliver(event);
          return;
        }
        this.#buffer.push(event);
        void this.catchUp();
        return;
    }
  }

  /** Reads the store for whatever was missed (the events listener reconnected, or a sequence was skipped). */
  async catchUp(): Promise<void> {
    if (this.#state === 'syncing' || this.#state === 'starting') {
      this.#readAgain = true;
      return;
    }
    if (this.#state !== 'live') return;
    try {
      await this.#sync();
    } catch (error) {
      this.#fail(error);
    }
  }

  close(): void {
    this.#state = 'closed';
    this.#buffer = [];
  }

  async #sync(beforeLive?: (replayed: number) => void): Promise<void> {
    const transactionId = this.#transactionId;
    if (transactionId === null) throw new Error('sync before the transaction was found');
    this.#state = 'syncing';
    let replayed = 0;
    let rereads = 0;
    for (;;) {
      this.#readAgain = false;
      const events = await this.store.eventsAfter(transactionId, this.#lastSequence, this.options.pageSize);
      if (this.closed) return;
      for (const stored of events) {
        if (stored.sequence <= this.#lastSequence) continue;
        if (!this.#deliver(new RealtimeEvent(stored.eventId, this.transactionNumber, stored.sequence, stored.payload))) return;
        replayed += 1;
      }
      if (events.length === this.options.pageSize || this.#readAgain) continue;
      this.#buffer = this.#buffer.filter((event) => event.sequence > this.#lastSequence).sort((a, b) => a.sequence - b.sequence);
      const next = this.#buffer[0];
      if (next && next.sequence > this.#lastSequence + 1) {
        if (rereads++ < GAP_REREADS) continue;
        this.logger.warn(
          { transactionNumber: this.transactionNumber, after: this.#lastSequence, next: next.sequence },
          'websocket: sequence gap not in the store; sending on',
        );
      }
      break;
    }
    beforeLive?.(replayed);
    this.#state = 'live';
    const buffered = this.#buffer;
    this.#buffer = [];
    for (const event of buffered) {
      if (event.sequence > this.#lastSequence && !this.#deliver(event)) return;
    }
  }

  #deliver(event: RealtimeEvent): boolean {
    if (!this.sink.sendEvent(event)) {
      this.close();
      return false;
    }
    this.#lastSequence = event.sequence;
    return true;
  }

  #end(code: 'not_found' | 'internal_error', message: string): void {
    this.close();
    this.onEnded(this);
    this.sink.sendMessage({ type: 'error', code, message, transactionNumber: this.transactionNumber });
  }

  #fail(error: unknown): void {
    if (this.closed) return;
    this.logger.error({ err: error, transactionNumber: this.transactionNumber }, 'websocket: reading transaction events failed');
    this.#end('internal_error', 'Reading the updates failed; subscribe again with afterSequence.');
  }
}
