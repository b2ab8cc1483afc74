/**
 * The transactions module's face for other modules' query files (`*.queries.ts`): what their SQL builds on (the
 * sequence every update takes, a write answering the transaction's view, the status move, the consumer payment's
 * in-flight mark) and the row types. Query files import this, never index.ts, which re-exports the services.
 */
export {
  CONSUMER_PAYMENT_STALE_S,
  consumerPaymentMark,
  moveStatus,
  nextSequence,
  noConsumerPaymentInFlight,
  writeReturningView,
  type RefundRow,
  type TransactionRow,
  type TransactionView,
} from './transactions.queries';
