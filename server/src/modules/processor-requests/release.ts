import type { Tx } from '../../db/client';
import { queueProcessorRequest } from './commit-intent';
import type { HeldMethodOperation } from './operation';
import type { ProcessorRequestRow } from './processor-requests.queries';

/**
 * A release of what a hold held, queued in the transaction whose guarded write released it in the books (a void, a
 * closeAuth, an expiry, a refused capture, a replaced hold); it is called after that commit (`finishReleases`).
 */
export function queueRelease(
  tx: Tx,
  hold: { transactionId: string; merchantId: string; processorReference: string; currency: string },
  amountCents: number,
  now: Date,
): Promise<ProcessorRequestRow> {
  return queueProcessorRequest(tx, { operation: 'release', ...hold, amountCents }, now);
}

/** A release: the books moved when it was queued (`queueRelease`); at the processor it gives back what the hold held, and done is all there is to record. */
export const releaseOperation: HeldMethodOperation & { kind: 'release' } = {
  kind: 'release',
  call: (processor, request) =>
    // Pending (Adyen's cancel answers `received`): in flight until the acquirer's CANCELLATION webhook says it was made.
    processor.release(request.processorReference, request.amountCents, request.requestKey).then((answer) => answer ?? ({ outcome: 'released' } as const)),
  record: () => Promise.resolve(null),
};
