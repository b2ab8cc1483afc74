import { ApiError, ValidationError } from '../../errors';
import { AdyenNotificationSchema, signedByAdyen, type AdyenNotificationItem } from '../../processor/adyen/adyen-notifications';
import type { ServiceDeps } from '../../service-deps';
import { adyenWebhookAccounts, type WebhookAccount } from '../processor-accounts';
import { applyToldOutcome, TOLD_EVENTS, type ProcessorOperations, type ToldEvent } from '../processor-requests';

const isToldEvent = (event: string): event is ToldEvent => Object.hasOwn(TOLD_EVENTS, event);

/** Whose key an item verified with: the default account's (ADYEN_HMAC_KEY) or a merchant's own account's. */
type SignedBy = { account: 'default' } | { account: 'own'; merchantId: string };

/**
 * `POST /processors/adyen/webhooks`: Adyen's standard notifications (docs/operating.md#adyen). Every item must carry
 * the HMAC signature of its account's key, checked by Adyen's library before anything is read from the batch: the
 * key of each merchant's own account on the item's `merchantAccountCode` (PUT /merchant/processor), and the default
 * account's (ADYEN_HMAC_KEY), each tried. One item that verifies with none refuses the whole batch (401) and nothing
 * changes. The outcomes of captures, cancels and refunds (`CAPTURE`, `CANCELLATION`, `REFUND`, `CAPTURE_FAILED`,
 * `REFUND_FAILED`) are kept once and applied to the request that waits for them (`applyToldOutcome`); a duplicate, an
 * outcome that came before its call's answer was recorded (kept until it is), one for a reference of no request and
 * every other event are accepted and logged, without change. Nothing of the body but references, events and outcomes
 * reaches the log.
 */
export async function receiveAdyenNotification(deps: ServiceDeps, operations: ProcessorOperations, body: unknown): Promise<void> {
  const parsed = AdyenNotificationSchema.safeParse(body);
  if (!parsed.success) throw ValidationError.fromZod(parsed.error);
  const items = parsed.data.notificationItems.map((n) => n.NotificationRequestItem);
  const ownAccounts = new Map<string, WebhookAccount[]>();
  for (const code of new Set(items.map((item) => item.merchantAccountCode))) ownAccounts.set(code, await adyenWebhookAccounts(deps, code));
  const signedBy = items.map((item) => signerOf(item, deps.env.ADYEN_HMAC_KEY, ownAccounts.get(item.merchantAccountCode) ?? []));
  if (signedBy.some((signer) => signer === null)) {
    deps.logger.warn(
      { code: 'adyen_webhook_unsigned', items: items.length, configured: Boolean(deps.env.ADYEN_HMAC_KEY) },
      'Adyen webhook refused: its HMAC signature does not verify',
    );
    throw new ApiError(
      'unauthorized',
      "The notification's HMAC signature does not verify with the HMAC key of the account it names (ADYEN_HMAC_KEY, or the merchant's own account's).",
    );
  }
  for (const [i, item] of items.entries()) await receiveItem(deps, operations, item, signedBy[i]!);
}

/** Whose key signed `item`: each candidate is tried (one HMAC each), a merchant's own account's before the default's. */
function signerOf(item: AdyenNotificationItem, defaultKey: string | undefined, own: WebhookAccount[]): SignedBy | null {
  const tried: { signer: SignedBy; verifies: boolean }[] = [
    ...own.map((account) => ({ signer: { account: 'own' as const, merchantId: account.merchantId }, verifies: signedByAdyen(item, account.secret) })),
    ...(defaultKey ? [{ signer: { account: 'default' as const }, verifies: signedByAdyen(item, defaultKey) }] : []),
  ];
  return tried.find((t) => t.verifies)?.signer ?? null;
}

async function receiveItem(deps: ServiceDeps, operations: ProcessorOperations, item: AdyenNotificationItem, signedBy: SignedBy): Promise<void> {
  const logged = {
    code: 'adyen_notification',
    event: item.eventCode,
    pspReference: item.pspReference,
    success: item.success,
    ...(signedBy.account === 'own' ? { merchantId: signedBy.merchantId } : {}),
  };
  const account = deps.env.ADYEN_MERCHANT_ACCOUNT;
  // The default key may sign for several merchant accounts (a company-level webhook): only the default's are used.
  if (signedBy.account === 'default' && account && item.merchantAccountCode !== account) {
    deps.logger.warn({ ...logged, result: 'other_account' }, 'Adyen notification for another merchant account: accepted, nothing changed');
    return;
  }
  if (!isToldEvent(item.eventCode)) {
    deps.logger.info({ ...logged, result: 'not_used' }, 'Adyen notification accepted; the service does not use this event');
    return;
  }
  const result = await applyToldOutcome(
    deps,
    operations,
    {
      processor: 'adyen',
      reference: item.pspReference,
      event: item.eventCode,
      success: item.success === 'true',
      paymentReference: item.originalReference ?? null,
      amountCents: item.amount.value,
      currency: item.amount.currency,
      reason: item.reason ? item.reason.slice(0, 500) : null,
      receivedAt: deps.clock.now(),
    },
    signedBy.account === 'own' ? { merchantId: signedBy.merchantId } : {},
  );
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
