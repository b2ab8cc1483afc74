import { recordCaptureOutcome, recordReauthorization } from '../authorizations';
import { recordCommitCapture } from '../commits';
import { recordRelease, type OutcomeRecorders } from '../processor-requests';
import type { LifecycleDeps } from './lifecycle-deps';

/** How each kind of processor request records its outcome: what the worker uses to finish any request left in flight. */
export function processorOutcomeRecorders(deps: Pick<LifecycleDeps, 'env'>): OutcomeRecorders {
  return { capture: recordCaptureOutcome(deps), commit_capture: recordCommitCapture(deps), reauthorize: recordReauthorization(deps), release: recordRelease };
}
