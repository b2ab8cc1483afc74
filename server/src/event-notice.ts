/**
 * How every instance hears of a new transaction event: a notification on EVENTS_CHANNEL, sent by the event's own
 * statement (transactions' `recordChange`) and delivered at commit. The websocket fan-out (realtime/) and the
 * callback dispatcher's wake-up (main.ts) listen for it.
 */

/** The channel every instance listens on for new events (websocket fan-out, callback dispatcher wake-up). */
export const EVENTS_CHANNEL = 'svc_events';

/** What an events notification carries: enough to route it; the payload is read from transaction_events. */
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
