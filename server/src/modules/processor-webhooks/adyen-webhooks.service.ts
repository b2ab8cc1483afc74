import { ApiError, ValidationError } from '../../errors';
import { AdyenNotificationSchema, signedByAdyen, type AdyenNotificationItem } from '../../processor/adyen/adyen-notifications';
import type { ServiceDeps } from '../../service-deps';
import { applyToldOutcome, TOLD_EVENTS, type ProcessorOperations, type ToldEvent } from '../processor-requests';

const isToldEvent = (event: string): event is ToldEvent => Object.hasOwn(TOLD_EVENTS, event);

/**
 * `POST /processors/adyen/webhooks`: Adyen's standard notifications (docs/operating.md#adyen). Every item must carry
 * the HMAC signature of the account's key (ADYEN_HMAC_KEY), checked by Adyen's library before anything is read from
 * the batch: one that does not verify refuses the whole batch (401) and nothing changes. The outcomes of captures,
 * cancels and refunds (`CAPTURE`, `CANCELLATION`, `REFUND`, `CAPTURE_FAILED`, `REFUND_FAILED`) are kept once and
 * applied to the request that waits for them (`applyToldOutcome`); a duplicate, an outcome that came before its call's
 * answer was recorded (kept until it is), one for a reference of no request and every other event are accepted and
 * logged, without change. Nothing of the body but references, events and outcomes reaches the log.
 */
export async function receiveAdyenNotification(deps: ServiceDeps, operations: ProcessorOperations, body: unknown): Promise<void> {
  const parsed = AdyenNotificationSchema.safeParse(body);
  if (!parsed.success) throw ValidationError.fromZod(parsed.error);
  const hmacKey = deps.env.ADYEN_HMAC_KEY;
  const items = parsed.data.notificationItems.map((n) => n.NotificationRequestItem);
  if (!hmacKey || !items.every((item) => signedByAdyen(item, hmacKey))) {
    deps.logger.warn(
      { code: 'adyen_webhook_unsigned', items: items.length, configured: Boolean(hmacKey) },
      'Adyen webhook refused: its HMAC signature does not verify',
    );
    throw new ApiError('unauthorized', "The notification's HMAC signature does not verify with the webhook's HMAC key (ADYEN_HMAC_KEY).");
  }
  for (const item of items) await receiveItem(deps, operations, item);
}

async function receiveItem(deps: ServiceDeps, operations: ProcessorOperations, item: AdyenNotificationItem): Promise<void> {
  const logged = { code: 'adyen_notification', event: item.eventCode, pspReference: item.pspReference, success: item.success };
  const account = deps.env.ADYEN_MERCHANT_ACCOUNT;
  if (account && item.merchantAccountCode !== account) {
    deps.logger.warn({ ...logged, result: 'other_account' }, 'Adyen notification for another merchant account: accepted, nothing changed');
    return;
  }
  if (!isToldEvent(item.eventCode)) {
    deps.logger.info({ ...logged, result: 'not_used' }, 'Adyen notification accepted; the service does not use this event');
    return;
  }
  const result = await applyToldOutcome(deps, operations, {
    processor: 'adyen',
    reference: item.pspReference,
    event: item.eventCode,
    success: item.success === 'true',
    paymentReference: item.originalReference ?? null,
    amountCents: item.amount.value,
    currency: item.amount.currency,
    reason: item.reason ? item.reason.slice(0, 500) : null,
    receivedAt: deps.clock.now(),
  });
  const level = result === 'late' || result === 'unrelated' ? 'warn' : 'info';
  deps.logger[level]({ ...logged, result }, `Adyen notification accepted: ${RESULTS[result]}`);
}

const RESULTS = {
  applied: 'its outcome was recorded',
  kept: 'kept until the request it answers has its answer recorded (or for an operation the service did not make)',
  duplicate: 'a notification already received; nothing changed',
  late: 'its request was already recorded with another outcome; settle it with Adyen',
  unrelated: 'it does not answer the request under its reference; nothing changed',
} as const;
