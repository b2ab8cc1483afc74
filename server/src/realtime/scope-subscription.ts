import type { Logger } from '../logger';
import type { ScopeFilter } from './audience';
import { RealtimeEvent } from './realtime-event';
import type { ScopedEvent, StoredEvent } from './realtime.queries';
import type { SubscriptionSink } from './transaction-subscription';

export interface ScopeEventStore {
  /** The events in the scope created at or after `since`, oldest first, at most `limit`. */
  eventsInScopeSince(filter: ScopeFilter, since: Date, limit: number): Promise<ScopedEvent[]>;
  /** One transaction's events after `afterSequence` and created at or after `since`, oldest first, at most `limit`. */
  transactionEventsSince(transactionId: string, afterSequence: number, since: Date, limit: number): Promise<StoredEvent[]>;
}

/** Transactions whose last sent sequence a subscription remembers (the most recently updated ones). */
const REMEMBERED_TRANSACTIONS = 5_000;
/** Events one catch-up sends at most; a longer outage is logged, and clients re-read by status query. */
export const SCOPE_CATCH_UP_LIMIT = 1_000;

/**
 * How far before a moment a catch-up reads: an event is stamped when its change starts and notified when it commits,
 * so a change that began before the listener was last heard from (or before the subscription) can be among the lost.
 */
export const CATCH_UP_MARGIN_MS = 30_000;

/** Events one gap fill reads at most (a transaction has a few dozen at most). */
const GAP_FILL_LIMIT = 200;

/**
 * A standing subscription to every transaction of a merchant (or branch), or of a device. It remembers the last
 * sequence it sent per transaction, so an event reaches the client once even when the catch-up after a lost
 * bus connection and a late live notice both carry it, and never after a later one of its transaction. A live event
 * that skips a sequence (its predecessor's notice was lost, or is still on its way from another instance) is held
 * while the missing ones are read from the store, so each transaction's updates reach the client in order.
 */
export class ScopeSubscription {
  readonly #sent = new Map<string, number>();
  /** Live events held, by transaction number, while that transaction's gap is read from the store. */
  readonly #filling = new Map<string, RealtimeEvent[]>();

  constructor(
    readonly filter: ScopeFilter,
    readonly sink: SubscriptionSink,
    private readonly store: ScopeEventStore,
    private readonly logger: Logger,
    /** Changes started well before it (CATCH_UP_MARGIN_MS) were never this subscription's to send. */
    readonly subscribedAt: Date,
  ) {}

  /**
   * A live event of transaction `transactionId` from the hub. Sent at once when it follows the last one sent of its
   * transaction (or is its creation); otherwise the events between are read from the store first: after the last one
   * sent, or, for a transaction this subscription has sent nothing of, those created since it subscribed.
   */
  accept(event: RealtimeEvent, transactionId: string): void {
    const held = this.#filling.get(event.transactionNumber);
    if (held) {
      held.push(event);
      return;
    }
    const last = this.#sent.get(event.transactionNumber);
    if (event.sequence === (last ?? 0) + 1 || (last !== undefined && event.sequence <= last)) {
      this.deliver(event);
      return;
    }
    void this.#fill(event, transactionId, last);
  }

  async #fill(event: RealtimeEvent, transactionId: string, last: number | undefined): Promise<void> {
    const { transactionNumber } = event;
    const held = [event];
    this.#filling.set(transactionNumber, held);
    try {
      const since = last === undefined ? this.subscribedAt : new Date(0);
      const missed = await this.store.transactionEventsSince(transactionId, last ?? 0, since, GAP_FILL_LIMIT);
      for (const e of missed) {
        if (e.sequence < event.sequence) this.deliver(new RealtimeEvent(e.eventId, transactionNumber, e.sequence, e.payload));
      }
    } catch (error) {
      this.logger.error({ err: error, scope: this.filter.scope }, 'websocket: filling a scope gap failed; sending on');
    } finally {
      this.#filling.delete(transactionNumber);
      for (const e of held.sort((a, b) => a.sequence - b.sequence)) this.deliver(e);
    }
  }

  /** Sends the event unless this subscription already sent it or a later update of its transaction. */
  deliver(event: RealtimeEvent): void {
    const last = this.#sent.get(event.transactionNumber);
    if (last !== undefined && event.sequence <= last) return;
    // Delete first so the Map's order stays "least recently updated first" for the eviction below.
    this.#sent.delete(event.transactionNumber);
    this.#sent.set(event.transactionNumber, event.sequence);
    if (this.#sent.size > REMEMBERED_TRANSACTIONS) this.#sent.delete(this.#sent.keys().next().value as string);
    this.sink.sendEvent(event);
  }

  /** Notifications may have been lost since `since`: send what the store holds from then on that was not sent. */
  async catchUp(since: Date): Promise<void> {
    try {
      const start = new Date(this.subscribedAt.getTime() - CATCH_UP_MARGIN_MS);
      const from = since > start ? since : start;
      const events = await this.store.eventsInScopeSince(this.filter, from, SCOPE_CATCH_UP_LIMIT);
      for (const e of events) {
        // The connection's own subscription to that transaction catches up by itself, in order.
        if (this.sink.follows?.(e.transactionNumber)) continue;
        this.deliver(new RealtimeEvent(e.eventId, e.transactionNumber, e.sequence, e.payload));
      }
      if (events.length === SCOPE_CATCH_UP_LIMIT) {
        this.logger.warn({ scope: this.filter.scope, events: events.length }, 'websocket: scope catch-up stopped at its limit');
      }
    } catch (error) {
      this.logger.error({ err: error, scope: this.filter.scope }, 'websocket: scope catch-up failed');
    }
  }
}
