/** The transactions module's public surface: what other modules and the wiring may use. */
export { newConfirmationNumber, newLinkId, newPaymentId, newToken, newTransactionNumber } from './identifiers';
export { resolveInitAmounts } from './init-amounts';
export { EVENTS_CHANNEL, recordChange } from './transaction-events';
export type { EventNotice } from './transaction-events';
export { toProduct, toRefund } from './transaction-object';
export { isRefundable, refundableCentsOf, settledCentsOf } from './refundable';
export type { StoredProduct } from './transaction-object';
export { transactionScope } from './transaction-scope.queries';
export {
  findTransactionRowForPrincipal,
  insertTransaction,
  loadTransactionView,
  moveStatus,
  nextSequence,
  consumerPaymentMark,
  CONSUMER_PAYMENT_STALE_S,
  noConsumerPaymentInFlight,
  withPayment,
  withToken,
  writeReturningView,
} from './transactions.queries';
export type { RefundRow, TransactionRow, TransactionView } from './transactions.queries';
export { paymentPageUrl } from './transaction-object';
export { cancelTransaction } from './transactions.service';
export { recordSmsOutcome } from './sms-outcome';
