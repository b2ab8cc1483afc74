import type { Database } from '../db/client';
import type { Listener } from '../db/resilient-listener';
import type { Logger } from '../logger';
import { EVENTS_CHANNEL, parseEventNotice } from '../event-notice';
import type { BusHandlers, UpdateBus } from './update-bus';
import { notifyEvents } from './publications.queries';

/**
 * The default bus: PostgreSQL's LISTEN/NOTIFY. Notices are sent by their own statement on the pool, after the change
 * committed (never inside it, where NOTIFY would take PostgreSQL's commit-wide lock while the change holds its rows);
 * every instance listens on its listener's one connection, which says when it has listened again after a loss.
 */
export function postgresBus({
  db,
  listener,
  logger,
  status,
}: {
  db: Database;
  listener: Listener;
  logger: Logger;
  status?: () => { ok: boolean; detail: string };
}): UpdateBus {
  return {
    kind: 'postgres',
    publish: (notices) => notifyEvents(db, notices),
    async subscribe(handlers: BusHandlers) {
      let listening = false;
      const { unlisten } = await listener.listen(
        EVENTS_CHANNEL,
        (text) => {
          const notice = parseEventNotice(text);
          if (notice) handlers.onNotice(notice);
          else logger.warn({ channel: EVENTS_CHANNEL }, 'update bus: ignoring a malformed events notification');
        },
        () => {
          if (listening) handlers.onGap();
          listening = true;
        },
      );
      return {
        async unsubscribe() {
          await unlisten();
        },
      };
    },
    status: () => status?.() ?? { ok: true, detail: 'listening' },
    close: async () => undefined,
  };
}
