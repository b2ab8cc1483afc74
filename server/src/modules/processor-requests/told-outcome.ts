import type { HeldMethodOutcome } from './operation';
import type { ProcessorNotificationRow } from './notifications.queries';
import type { ProcessorRequestRow } from './processor-requests.queries';

/** The acquirer's events that tell a call's outcome (Adyen's), and the call each answers. */
export const TOLD_EVENTS = {
  CAPTURE: 'capture',
  CAPTURE_FAILED: 'capture',
  CANCELLATION: 'cancel',
  REFUND: 'refund',
  REFUND_FAILED: 'refund',
} as const;
export type ToldEvent = keyof typeof TOLD_EVENTS;

/** Which told event answers which kind of request. */
const ANSWERS: Record<ProcessorRequestRow['operation'], (typeof TOLD_EVENTS)[ToldEvent] | null> = {
  capture: 'capture',
  commit_capture: 'capture',
  refund: 'refund',
  release: 'cancel',
  reauthorize: null,
  sale: null,
  authorize: null,
  charge_token: null,
};

/**
 * The outcome a told event gives `request`, as its call's answer would have been: a capture approved or failed, a
 * refund approved or declined (the acquirer's reason as its code), a release made (a cancel Adyen refused leaves only
 * a hold that expires by itself: the books released it already). Null when the event does not answer this kind of
 * request. A `*_FAILED` event is a failure whatever its `success` says (Adyen sends it `true`: the failure happened).
 */
export function toldOutcome(request: ProcessorRequestRow, told: ProcessorNotificationRow): HeldMethodOutcome | null {
  const kind = TOLD_EVENTS[told.event as ToldEvent] as (typeof TOLD_EVENTS)[ToldEvent] | undefined;
  if (!kind || ANSWERS[request.operation] !== kind) return null;
  const succeeded = told.success && !told.event.endsWith('_FAILED');
  const processor = told.processor;
  const reason = told.reason || `${told.event} (${told.success ? 'success' : 'refused'})`;
  switch (kind) {
    case 'cancel':
      return { outcome: 'released' };
    case 'refund':
      return succeeded ? { outcome: 'approved', processor } : { outcome: 'declined', processor, code: 'refund_declined', processorCode: reason };
    case 'capture':
      return succeeded
        ? {
            outcome: 'approved',
            processor,
            reference: request.processorReference ?? told.paymentReference ?? told.reference,
            authNumber: told.reference.slice(-6),
            supportsCloseAuth: true,
            paymentMethodName: '',
            lastFourDigits: null,
          }
        : { outcome: 'failed', processor, reason };
  }
}
