import { z } from 'zod';
import type { Clock } from '../clock';
import type { Database } from '../db/client';
import type { Listener } from '../db/resilient-listener';
import type { Logger } from '../logger';
import type { Hub } from './hub';
import { inSpan } from '../tracing';
import { RealtimeEvent } from './realtime-event';
import { CATCH_UP_MARGIN_MS } from './scope-subscription';
import { eventPayloads } from './realtime.queries';
import { EVENTS_CHANNEL, type EventNotice } from '../event-notice';

/** The notice as `recordChange` sends it; anything else on the channel is logged and ignored. */
const EventNoticeSchema = z.object({
  eventId: z.string(),
  transactionId: z.string(),
  transactionNumber: z.string(),
  merchantId: z.string(),
  branchId: z.string().nullable(),
  deviceId: z.string().nullable(),
  sequence: z.number().int(),
  callback: z.boolean(),
}) satisfies z.ZodType<EventNotice>;

/** Payloads read per query when notifications pile up. */
const BATCH = 200;

export interface EventsBridge {
  stop(): Promise<void>;
}

/**
 * LISTEN on the events channel (postgres.js keeps one dedicated connection for it and re-listens after a
 * reconnect) and hand every notice some local subscriber wants to the hub, with its payload read once.
 * Notices are published in the order they arrived, which for one transaction is its sequence order; payloads
 * of notices that arrive together are read in one query. After a reconnect, notifications sent meanwhile are
 * lost: transaction subscriptions then re-read the store after their last sequence, and scope subscriptions
 * from (a margin before) the last time the listener was heard from, by the clock events are stamped with.
 */
export async function startEventsBridge({
  sql,
  db,
  hub,
  logger,
  clock,
}: {
  sql: Listener;
  db: Database;
  hub: Hub;
  logger: Logger;
  clock: Clock;
}): Promise<EventsBridge> {
  let stopped = false;
  let listening = false;
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

  const onNotify = (text: string) => {
    if (stopped) return;
    lastHeardMs = clock.now().getTime();
    const parsed = EventNoticeSchema.safeParse(safeJson(text));
    if (!parsed.success) {
      logger.warn({ channel: EVENTS_CHANNEL }, 'websocket: ignoring a malformed events notification');
      return;
    }
    if (!hub.wants(parsed.data)) return;
    pending.push(parsed.data);
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

  const onListen = () => {
    if (stopped) return;
    if (listening) {
      logger.warn({ channel: EVENTS_CHANNEL }, 'websocket: events listener reconnected; subscriptions catch up from the store');
      recover();
    }
    listening = true;
    lastHeardMs = clock.now().getTime();
  };

  const { unlisten } = await sql.listen(EVENTS_CHANNEL, onNotify, onListen);
  return {
    async stop() {
      stopped = true;
      await unlisten();
      await draining;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
