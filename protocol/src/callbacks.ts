import { z } from 'zod';

/**
 * How callbacks are delivered by default (the operator may change each: docs/operating.md#configuration): a 2xx within
 * `timeoutS` succeeds; a failure is tried again after each delay of `retryScheduleS` in turn, and after communication
 * errors every last delay until `giveUpAfterS` after the first attempt.
 */
export const CALLBACK_DELIVERY_DEFAULTS = {
  timeoutS: 10,
  retryScheduleS: [15, 60, 120, 600, 2000, 32000],
  giveUpAfterS: 3 * 24 * 3600,
} as const;

/** Where a delivery stands: retried while `pending`, then `succeeded` or `failed` for good. */
export const CALLBACK_DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const;

/** A delivery log entry (docs/integrating.md#delivery-and-retries): one per transaction update sent to the callbackURL. */
export const CallbackDeliverySchema = z.object({
  deliveryId: z.string(),
  eventId: z.string().describe('The webhook-id header of every attempt'),
  sequence: z.number().int(),
  url: z.string(),
  method: z.enum(['GET', 'POST']),
  status: z.enum(CALLBACK_DELIVERY_STATES),
  state: z.enum(CALLBACK_DELIVERY_STATES).describe('Deprecated: the same as `status`, its former name'),
  nextAttemptAt: z.iso.datetime().nullable(),
  attempts: z.array(
    z.object({
      at: z.iso.datetime(),
      httpStatus: z.number().int().nullable(),
      error: z.string().nullable(),
      durationMs: z.number().int().nullable(),
    }),
  ),
});
export type CallbackDelivery = z.infer<typeof CallbackDeliverySchema>;

export const CallbackLogSchema = z.object({ deliveries: z.array(CallbackDeliverySchema) });
export type CallbackLog = z.infer<typeof CallbackLogSchema>;

export const RedeliverResponseSchema = z.object({
  deliveryId: z.string(),
  status: z.literal('pending'),
  state: z.literal('pending').describe('Deprecated: the same as `status`, its former name'),
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type RedeliverResponse = z.infer<typeof RedeliverResponseSchema>;
