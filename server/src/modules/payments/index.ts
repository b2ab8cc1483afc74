/** What the payment flows share (links, widget sessions, commits, captures): the payments module's public surface. */
export { assertCardUsable } from './card-validation';
export { confirmationFor, confirmationOfApproval, toPayment } from './confirmation';
export { insertPayment, insertPaymentToken, newPaymentRow, newPaymentTokenRow, paymentRider, tokenRider } from './payments.queries';
export type { PaymentRow, PaymentTokenRow } from './payments.queries';
