import { captureOperation, reauthorizeOperation, tokenChargeOperation } from './modules/authorizations';
import { commitCaptureOperation } from './modules/commits';
import { linkPaymentOperation } from './modules/hosted-page';
import { releaseOperation, type ProcessorOperations } from './modules/processor-requests';
import { refundOperation } from './modules/refunds';

/**
 * Every kind of processor request and the operation that finishes it: what the worker uses to finish any request
 * left in flight (a call on a method held is made again and recorded; a payment is reversed and its intent undone).
 * Each operation is declared once, in its module (docs/design/processor-requests.md); a new kind is added here, and
 * the type fails until it is.
 */
export const PROCESSOR_OPERATIONS: ProcessorOperations = {
  capture: captureOperation,
  commit_capture: commitCaptureOperation,
  reauthorize: reauthorizeOperation,
  release: releaseOperation,
  // A refund is never reversed: unanswered, it is asked again with its key until the processor answers.
  refund: refundOperation,
  sale: linkPaymentOperation,
  // A widget payment commits nothing before its call (its transaction is created with the outcome): its reversal has
  // nothing to undo, and a link authorization's undo, which ends the link's in-flight mark, finds none on it.
  authorize: linkPaymentOperation,
  charge_token: tokenChargeOperation,
};
