import type { ProcessorCallDeps } from './call-outside-lock';
import {
  keepNotification,
  lockAcquirerReference,
  lockRequestByPendingReference,
  markNotificationApplied,
  merchantOfPendingReference,
  type NewProcessorNotification,
} from './notifications.queries';
import type { ProcessorOperations } from './operation';
import { finishReleases, recordAnswerIn } from './record-once';
import { isPayment, type ProcessorRequestRow } from './processor-requests.queries';
import { toldOutcome } from './told-outcome';

/** What an outcome told by webhook came to. */
export type ToldOutcomeApplied =
  /** Recorded: its request is done, its asker's Idempotency-Key answers it, its update sent (callback, websocket). */
  | 'applied'
  /** Kept: no request waits under its reference yet (its call's answer is still being recorded, or it is none of ours). */
  | 'kept'
  /** Told before and kept or applied then: nothing changes. */
  | 'duplicate'
  /** Its request was recorded already, by another outcome (a failure told after a success): nothing changes. */
  | 'late'
  /** It does not answer the request under its reference (a refund's event for a capture). */
  | 'unrelated';

/**
 * An outcome an acquirer told by webhook (docs/design/processor-requests.md, "Outcomes that arrive later"), in one
 * transaction: kept once (a webhook sent again changes nothing), and, when the request whose call it answers waits
 * under its reference, recorded as that call's answer would have been, by the operation that asked. Under the
 * reference's lock, as the recording of the call's `Pending` answer is: whichever of the two comes second applies it.
 * Releases the recording queued (a capture refused after its hold ended) are called once it has committed. Told by a
 * merchant's own account (`from.merchantId`), it is `unrelated` to another merchant's request, and is not kept.
 */
export async function applyToldOutcome(
  deps: ProcessorCallDeps,
  operations: ProcessorOperations,
  told: NewProcessorNotification,
  from: { merchantId?: string } = {},
): Promise<ToldOutcomeApplied> {
  const releases: ProcessorRequestRow[] = [];
  const committed: (() => void)[] = [];
  const applied = await deps.db.transaction(async (tx): Promise<ToldOutcomeApplied> => {
    const now = deps.clock.now();
    await lockAcquirerReference(tx, told.processor, told.reference);
    if (from.merchantId) {
      const owner = await merchantOfPendingReference(tx, told.reference);
      if (owner !== null && owner !== from.merchantId) return 'unrelated';
    }
    const kept = await keepNotification(tx, told);
    if (kept.appliedAt) return 'duplicate';
    const request = await lockRequestByPendingReference(tx, told.reference);
    if (!request) return 'kept';
    if (request.state === 'done' || isPayment(request.operation)) return 'late';
    const outcome = toldOutcome(request, kept);
    if (!outcome) return 'unrelated';
    await markNotificationApplied(tx, kept.id, request.id, now);
    await recordAnswerIn(tx, deps, request, operations[request.operation], outcome, releases, committed);
    return 'applied';
  });
  for (const told of committed) told();
  await finishReleases(deps, releases);
  return applied;
}
