import { z } from 'zod';

/**
 * How every instance hears of a new transaction event: a notice on the update bus (update-bus/), published once the
 * change that recorded it has committed, from the realtime outbox (`event_publications`). The websocket fan-out
 * (realtime/) and the callback dispatcher's wake-up (main.ts) subscribe to it.
 */

/** The PostgreSQL channel (and NATS subject) the update bus carries notices on. */
export const EVENTS_CHANNEL = 'svc_events';

/** What an events notice carries: enough to route it; the payload is read from transaction_events. */
export interface EventNotice {
  eventId: string;
  transactionId: string;
  transactionNumber: string;
  merchantId: string;
  branchId: string | null;
  deviceId: string | null;
  sequence: number;
  /** Whether a callback delivery was queued with it. */
  callback: boolean;
}

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

/** The notice in a bus message, or null for anything else (which the subscriber logs and ignores). */
export function parseEventNotice(text: string): EventNotice | null {
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    return null;
  }
  const parsed = EventNoticeSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
