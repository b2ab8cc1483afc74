/** The processor outbox's public surface: what other modules and the wiring may use. */
export {
  answerFromProcessor,
  askedBy,
  finishProcessorRequest,
  finishReleases,
  originalRequestId,
  PROCESSOR_LEASE_MS,
  PendingDone,
  ProcessorUnanswered,
  queueProcessorRequest,
  queueProcessorRequestWith,
  recordRelease,
} from './processor-call';
export type { OutcomeRecorders, ProcessorAnswer, ProcessorCallDeps, RecordedAnswer, RecordOutcome, UndoPayment } from './processor-call';
export { finishAbandonedProcessorRequests, startProcessorRequestWorker, type ProcessorRequestWorker } from './processor-request-worker';
export { listNeedingReview, retryNeedingReview, type ProcessorRequestRow, type RequestNeedingReview } from './processor-requests.queries';
export { payAfterCommit, type Payment } from './payment-call';
export type { GuardedWrite } from './processor-requests.queries';
export { doneSlots, doneWrite, RecordedElsewhere, type DoneMark, type KeptAnswer } from './processor-requests.queries';
