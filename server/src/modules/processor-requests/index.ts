/** The processor requests' public surface: how an operation that calls the processor is declared, asked for and finished. */
export { PendingDone } from './operation';
export type { HeldMethodAnswer, HeldMethodOperation, HeldMethodRequest, PaymentOperation, ProcessorOperations, Recording, UndoPayment } from './operation';
export { askProcessor, payAfterCommit, type AskedRequest } from './ask-processor';
export { PROCESSOR_LEASE_MS } from './commit-intent';
export { logNothingFound, withinTimeout, type ProcessorCallDeps } from './call-outside-lock';
export { finishReleases } from './record-once';
export { queueRelease, releaseOperation } from './release';
export { finishAbandonedProcessorRequests, startProcessorRequestWorker, type ProcessorRequestWorker } from './processor-request-worker';
export {
  listNeedingReview,
  markReversed,
  reopenForReversal,
  retryNeedingReview,
  type ProcessorRequestRow,
  type RequestNeedingReview,
} from './processor-requests.queries';
export { applyToldOutcome, type ToldOutcomeApplied } from './apply-told-outcome';
export { TOLD_EVENTS, type ToldEvent } from './told-outcome';
