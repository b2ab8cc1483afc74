import { EVENT_LOG_DAYS, EVENT_PAGE_DEFAULT_LIMIT, type EventPage, type ParsedListEventsQuery, type RedeliverResponse } from '@svc/protocol';
import type { Queryable } from '../../db/client';
import { NotFoundError } from '../../errors';
import { eventBody } from '../callbacks';
import { listEvents, redeliverEvent as redeliver, type EventRow } from './events.queries';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The event object as `GET /events` lists it: the same bytes an endpoint gets (callbacks' eventBody). */
const eventText = (row: EventRow): string => eventBody({ eventId: row.id, type: row.type, createdAt: row.createdAt, refund: row.refund }, row.transaction);

/** `GET /events` and `pnpm svc events`: a page of the last 30 days' events, newest first, and the cursor to the next. */
export async function eventPage(db: Queryable, merchantId: string, query: ParsedListEventsQuery, now: Date): Promise<EventPage> {
  const limit = query.limit ?? EVENT_PAGE_DEFAULT_LIMIT;
  // One more than asked tells whether another page follows.
  const rows = await listEvents(db, merchantId, {
    limit: limit + 1,
    since: new Date(now.getTime() - EVENT_LOG_DAYS * DAY_MS),
    ...(query.startingAfter && { startingAfter: query.startingAfter }),
    ...(query.type && { type: query.type }),
  });
  const shown = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    data: shown.map((row) => JSON.parse(eventText(row)) as EventPage['data'][number]),
    hasMore,
    nextCursor: hasMore && shown.length > 0 ? shown[shown.length - 1]!.id : null,
  };
}

/** `POST /events/:eventId/redeliver`: another merchant's event or endpoint does not exist for this caller. */
export async function redeliverEvent(db: Queryable, merchantId: string, eventId: string, endpointId: string, now: Date): Promise<RedeliverResponse> {
  const queued = await redeliver(db, merchantId, eventId, endpointId, now);
  if (!queued) throw new NotFoundError('event or webhook endpoint');
  const nextAttemptAt = queued.nextAttemptAt.toISOString();
  return { deliveryId: queued.deliveryId, status: 'pending', state: 'pending', nextAttemptAt };
}
