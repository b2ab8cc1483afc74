/** The card-testing module's public surface: what other modules and the wiring may use. */
export { isFreshDecline, limitDeclines, settleAuthenticationAttempt, type AttemptAnswer, type CardAttempt, type CardTestingDeps } from './card-testing.service';
