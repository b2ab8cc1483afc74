/** The processor requests' public surface: how an operation that calls the processor is declared, asked for and finished. */
export { PendingDone } from './operation';
export type { HeldMethodAnswer, HeldMethodOperation, HeldMethodRequest, PaymentOperation, ProcessorOperations, Recording, UndoPayment } from './operation';
export { askProcessor, askProcessorFor, finishReleases, PROCESSOR_LEASE_MS, ProcessorUnanswered, queueRelease, releaseOperation } from './processor-call';
export type { ProcessorAnswer, ProcessorCallDeps } from './processor-call';
export { payAfterCommit } from './payment-call';
export { finishAbandonedProcessorRequests, startProcessorRequestWorker, type ProcessorRequestWorker } from './processor-request-worker';
export { listNeedingReview, retryNeedingReview, type ProcessorRequestRow, type RequestNeedingReview } from './processor-requests.queries';
export { guardedWrite, type GuardedWrite } from './processor-requests.queries';
