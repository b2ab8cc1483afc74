/** What other modules use of refunds: the recorder of a refund's processor outcome (the processor-request worker). */
export { recordRefundOutcome } from './refunds.service';
