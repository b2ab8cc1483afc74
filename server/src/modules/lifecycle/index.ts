/** The lifecycle module's public surface: what other modules and the wiring may use. */
export { sweepDue } from './expiry';
export type { LifecycleDeps } from './lifecycle-deps';
export { processorOutcomeRecorders } from './processor-outcomes';
