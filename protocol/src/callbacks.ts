import { z } from 'zod';

/** A delivery log entry (docs/integrating.md#delivery-and-retries): one per transaction update sent to the callbackURL. */
export const CallbackDeliverySchema = z.object({
  deliveryId: z.string(),
  eventId: z.string().describe('The webhook-id header of every attempt'),
  sequence: z.number().int(),
  url: z.string(),
  method: z.enum(['GET', 'POST']),
  state: z.enum(['pending', 'succeeded', 'failed']),
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
  state: z.literal('pending'),
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type RedeliverResponse = z.infer<typeof RedeliverResponseSchema>;
