import { z } from 'zod';
import { CallbackUrlSchema } from './callback-url';
import { RefundSchema, TransactionSchema } from './transaction';

/**
 * The event types a webhook endpoint may enable (`GET /docs/events` lists them with an example each), and what sends
 * each. `*` enables every type, those added later too.
 */
export const WEBHOOK_EVENT_TYPES = [
  { type: 'transaction.updated', when: 'Every update of a transaction (each change after its creation): the same moments as its callback.' },
  { type: 'transaction.approved', when: 'A transaction became approved: a sale paid (status 0) or an authorization granted (status 5).' },
  { type: 'transaction.declined', when: 'The processor declined the payment method (status 2).' },
  { type: 'transaction.captured', when: 'An authorization was captured, in part (status 6) or in whole (status 7).' },
  { type: 'transaction.voided', when: 'An authorization was voided, its hold released (status 8).' },
  { type: 'transaction.refunded', when: 'A refund went through: the transaction is partially refunded (status 13) or refunded (status 14).' },
  { type: 'refund.updated', when: 'A refund was asked for (pending) or answered (succeeded or failed): the event carries the refund beside its transaction.' },
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]['type'];
export const WEBHOOK_EVENT_TYPE_NAMES = WEBHOOK_EVENT_TYPES.map((t) => t.type) as [WebhookEventType, ...WebhookEventType[]];
/** Every type, the ones added later too. */
export const ALL_EVENTS = '*';

/** How long `GET /events` reaches back. */
export const EVENT_LOG_DAYS = 30;
export const EVENT_PAGE_DEFAULT_LIMIT = 20;
export const EVENT_PAGE_MAX_LIMIT = 100;
/** The most endpoints one merchant may have. */
export const MAX_WEBHOOK_ENDPOINTS = 16;

export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPE_NAMES, {
  error: `must be one of ${WEBHOOK_EVENT_TYPE_NAMES.join(', ')} or ${ALL_EVENTS} (GET /docs/events lists them)`,
});

const EnabledEventsSchema = z
  .array(z.union([WebhookEventTypeSchema, z.literal(ALL_EVENTS)], { error: `must be an event type of GET /docs/events or ${ALL_EVENTS}` }))
  .min(1, 'must name at least one event type')
  .max(WEBHOOK_EVENT_TYPE_NAMES.length + 1)
  .transform((types) => [...new Set(types)])
  .describe(`The event types this endpoint gets (\`${ALL_EVENTS}\` for every one): ${WEBHOOK_EVENT_TYPE_NAMES.join(', ')}`);

const DescriptionSchema = z.string().max(500).describe('Your note: what the endpoint is for');

export const CreateWebhookEndpointRequestSchema = z.strictObject({
  url: CallbackUrlSchema.describe('Where the events are sent (POST): https in production, a public address'),
  enabledEvents: EnabledEventsSchema,
  description: DescriptionSchema.optional(),
});
export type CreateWebhookEndpointRequest = z.input<typeof CreateWebhookEndpointRequestSchema>;

export const UpdateWebhookEndpointRequestSchema = z.strictObject({
  url: CallbackUrlSchema.describe('Where the events are sent (POST)').optional(),
  enabledEvents: EnabledEventsSchema.optional(),
  description: DescriptionSchema.nullable().optional(),
  disabled: z.boolean().describe('A disabled endpoint gets nothing, not even later what it missed').optional(),
});
export type UpdateWebhookEndpointRequest = z.input<typeof UpdateWebhookEndpointRequestSchema>;

export const WebhookEndpointSchema = z.object({
  endpointId: z.string(),
  url: z.string(),
  enabledEvents: z.array(z.string()),
  description: z.string().nullable(),
  disabled: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const CreatedWebhookEndpointSchema = z.object({
  endpoint: WebhookEndpointSchema,
  secret: z
    .string()
    .describe("The endpoint's own signing secret (`whsec_` and base64): shown this once, so keep it. Its events are signed with it the Standard Webhooks way"),
});
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpointSchema>;

export const WebhookEndpointListSchema = z.object({ data: z.array(WebhookEndpointSchema) });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointListSchema>;

export const DeletedWebhookEndpointSchema = z.object({ endpointId: z.string(), deleted: z.literal(true) });
export type DeletedWebhookEndpoint = z.infer<typeof DeletedWebhookEndpointSchema>;

/** An event as an endpoint gets it (the body of the POST) and as `GET /events` lists it. */
export const EventSchema = z.object({
  eventId: z.string().describe('The same on every delivery of it (the `webhook-id` header): keep the ones you handled to drop a repeat'),
  type: WebhookEventTypeSchema,
  createdAt: z.iso.datetime(),
  data: z.object({
    transaction: TransactionSchema.describe('The transaction as the change left it'),
    refund: RefundSchema.optional().describe('The refund, on refund events'),
  }),
});
export type ServiceEvent = z.infer<typeof EventSchema>;

/** A query parameter given once: text. */
const once = (description: string) => z.string({ error: 'must be given once' }).describe(description);

export const ListEventsQuerySchema = z.strictObject({
  limit: once(`How many events a page holds: 1 to ${EVENT_PAGE_MAX_LIMIT} (default ${EVENT_PAGE_DEFAULT_LIMIT})`)
    .regex(/^\d{1,4}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(1, 'must be at least 1').max(EVENT_PAGE_MAX_LIMIT, `must be at most ${EVENT_PAGE_MAX_LIMIT}`))
    .optional(),
  startingAfter: once("The page after this one: the previous page's `nextCursor` (an event id)")
    .regex(/^[0-9a-f-]{36}$/, "is not a cursor: pass the previous page's nextCursor as it came")
    .optional(),
  type: once('Only events of this type').pipe(WebhookEventTypeSchema).optional(),
});
export type ParsedListEventsQuery = z.output<typeof ListEventsQuerySchema>;

/** The query of `GET /events` as a client writes it. */
export interface ListEventsParams {
  limit?: number;
  startingAfter?: string | null;
  type?: WebhookEventType;
}

export const EventPageSchema = z.object({
  data: z.array(EventSchema),
  hasMore: z.boolean().describe('Whether older events match too'),
  nextCursor: z.string().nullable().describe('Pass as `startingAfter` for the next (older) page; null when `hasMore` is false'),
});
export type EventPage = z.infer<typeof EventPageSchema>;

export const RedeliverEventRequestSchema = z.strictObject({
  endpointId: z.uuid('is not an endpoint id').describe('The endpoint to send the event to again (or for the first time)'),
});
export type RedeliverEventRequest = z.infer<typeof RedeliverEventRequestSchema>;

/** The event a transaction's status sends when the transaction reaches it (WEBHOOK_EVENT_TYPES says when); null for none. */
export function statusEventType(status: number): WebhookEventType | null {
  switch (status) {
    case 0:
    case 5:
      return 'transaction.approved';
    case 2:
      return 'transaction.declined';
    case 6:
    case 7:
      return 'transaction.captured';
    case 8:
      return 'transaction.voided';
    case 13:
    case 14:
      return 'transaction.refunded';
    default:
      return null;
  }
}
