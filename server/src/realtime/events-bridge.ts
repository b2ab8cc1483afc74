import type { Clock } from '../clock';
import type { Database } from '../db/client';
import type { Logger } from '../logger';
import type { UpdateBus } from '../update-bus';
import type { Hub } from './hub';
import { inSpan } from '../tracing';
import { RealtimeEvent } from './realtime-event';
import { CATCH_UP_MARGIN_MS } from './scope-subscription';
import { eventPayloads } from './realtime.queries';
import type { EventNotice } from '../event-notice';

/** Payloads read per query when notifications pile up. */
const BATCH = 200;

export interface EventsBridge {
  stop(): Promise<void>;
}

/**
 * Subscribe to the update bus and hand every notice some local subscriber wants to the hub, with its payload read
 * once. Notices are handed over in the order they arrived; payloads of notices that arrive together are read in one
 * query. Notices of one transaction may arrive out of order (two instances publish after their commits) or not at all
 * (a bus message lost): subscriptions fill a skipped sequence from the store. After the bus reports a gap (its
 * connection was lost and is back), transaction subscriptions re-read the store after their last sequence, and scope
 * subscriptions from (a margin before) the last time the bus was heard from, by the clock events are stamped with.
 */
export async function startEventsBridge({
  bus,
  db,
  hub,
  logger,
  clock,
}: {
  bus: UpdateBus;
  db: Database;
  hub: Hub;
  logger: Logger;
  clock: Clock;
}): Promise<EventsBridge> {
  let stopped = false;
  let lastHeardMs = clock.now().getTime();
  const recover = (transactionNumbers?: string[]) => {
    hub.catchUp(transactionNumbers);
    hub.catchUpScopes(new Date(lastHeardMs - CATCH_UP_MARGIN_MS));
  };
  let pending: EventNotice[] = [];
  let draining: Promise<void> | null = null;

  /** One batch of notices: their events read from the store, then handed to the hub's subscribers. */
  const fanOut = async (batch: EventNotice[]) => {
    let payloads: Map<string, string>;
    try {
      payloads = await eventPayloads(db, [...new Set(batch.map((notice) => notice.eventId))]);
    } catch (error) {
      // The transaction subscriptions read the store themselves (and tell their client if that fails too).
      logger.error({ err: error, events: batch.length }, 'websocket: reading notified events failed');
      recover(batch.map((notice) => notice.transactionNumber));
      return;
    }
    for (const notice of batch) {
      const payload = payloads.get(notice.eventId);
      if (payload === undefined) {
        logger.warn({ eventId: notice.eventId }, 'websocket: notified event not found');
        continue;
      }
      hub.publish(notice, new RealtimeEvent(notice.eventId, notice.transactionNumber, notice.sequence, payload));
    }
  };

  const drain = async () => {
    while (pending.length > 0 && !stopped) {
      const batch = pending.slice(0, BATCH);
      pending = pending.slice(BATCH);
      await inSpan('websocket fan-out', { 'svc.realtime.events': batch.length }, () => fanOut(batch));
    }
  };

  const onNotice = (notice: EventNotice) => {
    if (stopped) return;
    lastHeardMs = clock.now().getTime();
    if (!hub.wants(notice)) return;
    pending.push(notice);
    schedule();
  };

  const schedule = () => {
    if (draining || stopped) return;
    draining = drain().finally(() => {
      draining = null;
      // A notice may have arrived after the loop's last check.
      if (pending.length > 0) schedule();
    });
  };

  const onGap = () => {
    if (stopped) return;
    logger.warn({ bus: bus.kind }, 'websocket: the update bus was lost and is back; subscriptions catch up from the store');
    recover();
    lastHeardMs = clock.now().getTime();
  };

  const { unsubscribe } = await bus.subscribe({ onNotice, onGap });
  return {
    async stop() {
      stopped = true;
      await unsubscribe();
      await draining;
    },
  };
}
