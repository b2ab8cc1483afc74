import adyen from '@adyen/api-library';
import type { Types } from '@adyen/api-library';
import { z } from 'zod';

/** One notification item as Adyen sends it (Webhooks-v1.json, NotificationRequestItem): strings where Adyen sends strings. */
const NotificationItemSchema = z.object({
  pspReference: z.string().min(1).max(64),
  originalReference: z.string().max(64).optional(),
  merchantAccountCode: z.string().min(1).max(200),
  merchantReference: z.string().max(200),
  eventCode: z.string().min(1).max(64),
  eventDate: z.string().max(64),
  success: z.enum(['true', 'false']),
  amount: z.object({ value: z.number().int(), currency: z.string().length(3) }),
  reason: z.string().max(1000).optional(),
  paymentMethod: z.string().max(100).optional(),
  additionalData: z.record(z.string(), z.unknown()).optional(),
});
export type AdyenNotificationItem = z.infer<typeof NotificationItemSchema>;

/** The body Adyen posts to the webhook: `{ live, notificationItems: [{ NotificationRequestItem }] }`. */
export const AdyenNotificationSchema = z.object({
  live: z.enum(['true', 'false']),
  notificationItems: z
    .array(z.object({ NotificationRequestItem: NotificationItemSchema }))
    .min(1)
    .max(100),
});
export type AdyenNotification = z.infer<typeof AdyenNotificationSchema>;

const validator = new adyen.hmacValidator();

/**
 * Whether Adyen signed `item` with the webhook's HMAC key: its `additionalData.hmacSignature` checked by Adyen's own
 * validator (HMAC-SHA256 over pspReference, originalReference, merchantAccountCode, merchantReference, value,
 * currency, eventCode, success; compared in constant time). An item without a signature is not signed.
 */
export function signedByAdyen(item: AdyenNotificationItem, hmacKey: string): boolean {
  const signature = item.additionalData?.['hmacSignature'];
  if (typeof signature !== 'string' || signature === '') return false;
  try {
    return validator.validateHMAC(item as unknown as Types.notification.NotificationRequestItem, hmacKey);
  } catch {
    return false;
  }
}
