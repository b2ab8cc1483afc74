import { recordCaptureOutcome, recordReauthorization } from './modules/authorizations';
import { recordCommitCapture } from './modules/commits';
import { endReversedConsumerPayment } from './modules/hosted-page';
import { recordRelease, type OutcomeRecorders } from './modules/processor-requests';
import { recordRefundOutcome } from './modules/refunds';
import type { ServiceDeps } from './service-deps';

/** How each kind of processor request records its outcome: what the worker uses to finish any request left in flight. */
export function processorOutcomeRecorders(deps: Pick<ServiceDeps, 'env'>): OutcomeRecorders {
  return {
    capture: recordCaptureOutcome(deps),
    commit_capture: recordCommitCapture(deps),
    reauthorize: recordReauthorization(deps),
    release: recordRelease,
    // A refund is never reversed: unanswered, it is asked again with its key until the processor answers.
    refund: recordRefundOutcome(deps),
    // A payment is only ever reversed by the worker. A link payment's in-flight mark then ends; a widget payment or a
    // token charge committed nothing before its call (its transaction is created with the outcome): nothing to undo.
    reversedPayment: endReversedConsumerPayment,
  };
}
