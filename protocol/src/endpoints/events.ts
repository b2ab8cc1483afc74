import * as paths from '../endpoint-paths';
import { RedeliverResponseSchema } from '../callbacks';
import { EventPageSchema, EVENT_LOG_DAYS, ListEventsQuerySchema, RedeliverEventRequestSchema } from '../webhook-endpoints';
import type { EndpointDescription } from './description';

/** The merchant's event log, and an event sent again to one endpoint. */
export const EVENT_ENDPOINTS = {
  listEvents: {
    operationId: 'listEvents',
    method: 'get',
    path: paths.listEventsPath,
    tag: 'Merchant',
    summary: "The merchant's events",
    description:
      `Every event of the last ${EVENT_LOG_DAYS} days, newest first, whether or not an endpoint got it: what to catch up from after an ` +
      'outage. Query: `limit` (1–100, default 20), `startingAfter` (the `nextCursor` of the page before) and `type` (one event type). ' +
      'A bad parameter is a 400 `validation_failed` naming it.',
    auth: ['merchant_key'],
    query: ListEventsQuerySchema,
    response: { status: 200, description: 'One page of events', schema: EventPageSchema },
    errors: [],
    idempotent: false,
  },
  redeliverEvent: {
    operationId: 'redeliverEvent',
    method: 'post',
    path: paths.redeliverEventPath,
    tag: 'Merchant',
    summary: 'Send an event to an endpoint again',
    description:
      'Starts the delivery of the event to the endpoint again from the beginning of the retry schedule (or sends it for the first ' +
      "time, to an endpoint that did not get it); its past attempts stay in the log. Another merchant's event or endpoint is a 404.",
    auth: ['merchant_key'],
    request: RedeliverEventRequestSchema,
    response: { status: 202, description: 'Queued', schema: RedeliverResponseSchema },
    errors: ['not_found'],
    idempotent: true,
  },
} as const satisfies Record<string, EndpointDescription>;
