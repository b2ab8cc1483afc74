/** The transactions module's public surface: what other modules and the wiring may use. */
export { resolveInitAmounts } from './init-amounts';
export { recordChange } from './transaction-events';
export { toProduct, toRefund } from './transaction-object';
export { isRefundable, refundableCentsOf, settledCentsOf } from './refundable';
export type { StoredProduct } from './transaction-object';
export { findTransactionRowForPrincipal, insertTransaction, loadTransactionView, withPayment, withToken } from './transactions.queries';
export type { TransactionRow, TransactionView } from './transactions.queries';
export { paymentPageUrl, toTransactionObject } from './transaction-object';
export { cancelTransaction } from './transactions.service';
export { recordSmsOutcome } from './sms-outcome';
