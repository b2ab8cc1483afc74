/**
 * `@svc/node`: the payment service for a merchant's Node.js backend. The typed client of every merchant endpoint,
 * callback verification and its test helper, and the types of every wire shape (README.md).
 */
export { createMerchantClient, type MerchantClient, type MerchantClientOptions, type RequestOptions } from './client';
export type { Page, PageList } from './page-list';
export { Status, statusName, type TransactionStatusCode, type TransactionStatusName } from './status';
export type { AuditLogParams, ListEventsParams, ListTransactionsParams } from './list-queries';
export { SvcApiError, type SvcErrorCode } from './errors';
export { generateTestCallbackHeaders, verifyCallback, type CallbackHeaders, type CallbackSignatureHeaders, type VerifyCallbackOptions } from './callbacks';
export { MERCHANT_ROUTES, type MerchantRoute } from './endpoint-table';
export type * from './wire';
