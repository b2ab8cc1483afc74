import type { EventNotice } from '../event-notice';

/** What a subscriber is told: each notice any instance published, and when some may have been missed. */
export interface BusHandlers {
  onNotice(notice: EventNotice): void;
  /**
   * The subscription was lost and is back (a reconnect): notices published meanwhile did not reach this instance, so
   * whoever follows updates re-reads the store. Never called for the first subscription.
   */
  onGap(): void;
}

/**
 * The update bus: how every instance hears of every committed event. Adapters: `postgres` (LISTEN/NOTIFY, sent outside
 * the change's transaction, after its commit) and `nats` (a NATS server). Delivery is at most once and in the order
 * each publisher published; the realtime outbox and the subscribers' catch-up from the store make up for the rest.
 */
export interface UpdateBus {
  readonly kind: 'postgres' | 'nats';
  /** Publishes notices in order; resolves once the bus has taken them, rejects when it could not (they stay in the outbox). */
  publish(notices: readonly EventNotice[]): Promise<void>;
  subscribe(handlers: BusHandlers): Promise<{ unsubscribe(): Promise<void> }>;
  /** For /readyz: whether the bus is reachable now. */
  status(): { ok: boolean; detail: string };
  close(): Promise<void>;
}
