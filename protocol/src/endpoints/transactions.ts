import * as paths from '../endpoint-paths';
import { InitTransactionRequestSchema } from '../init-request';
import { EmptyRequestSchema } from '../lifecycle-requests';
import { TransactionSchema } from '../transaction';
import { ListTransactionsQuerySchema, TransactionPageSchema } from '../transaction-list';
import type { EndpointDescription } from './description';

/** Transactions: create, list, read and cancel. */
export const TRANSACTION_ENDPOINTS = {
  initTransaction: {
    operationId: 'initTransaction',
    method: 'post',
    path: paths.initTransactionPath,
    tag: 'Transactions',
    summary: 'Create a transaction',
    description:
      'Creates a payment request. With `isCent` the amount is in cents, otherwise in major units with at most two decimals. ' +
      'Leave `amount` out for an authorization whose amount comes later through /transactions/authorize. ' +
      'With products and no amount, the amount is the product sum; with both and a difference, `productSumMismatch` is true. ' +
      'A device ID may authenticate instead of an API key; the transaction then goes to that terminal.',
    auth: ['merchant', 'device'],
    request: InitTransactionRequestSchema,
    response: { status: 200, description: 'The new transaction, status 1 (Pending)', schema: TransactionSchema },
    errors: ['callback_url_not_allowed', 'messages_unavailable'],
    idempotent: true,
  },
  listTransactions: {
    operationId: 'listTransactions',
    method: 'get',
    path: paths.listTransactionsPath,
    tag: 'Transactions',
    summary: 'List and search transactions',
    description:
      'Newest first, a page at a time: pass `nextCursor` as `startingAfter` for the next page (new transactions never shift the pages after ' +
      'the first). Filters combine: `status` (several), `createdFrom` / `createdTo`, `methodType`, `minAmount` / `maxAmount` in cents, ' +
      '`deviceId`, `posData[key]=value`, and `q`, which finds a transaction number, a confirmation number, or the last four digits of a card. ' +
      "A merchant key sees all of the merchant's transactions, a branch key its branch's, a device ID its own.",
    auth: ['merchant', 'device'],
    query: ListTransactionsQuerySchema,
    response: { status: 200, description: 'A page of transactions, newest first', schema: TransactionPageSchema },
    errors: [],
    idempotent: false,
  },
  getTransaction: {
    operationId: 'getTransaction',
    method: 'get',
    path: paths.getTransactionPath,
    tag: 'Transactions',
    summary: 'Transaction status',
    description: "The transaction object, the same shape a callback carries. Another merchant's or branch's transaction answers 404.",
    auth: ['merchant', 'device'],
    response: { status: 200, description: 'The transaction', schema: TransactionSchema },
    errors: ['not_found'],
    idempotent: false,
  },
  cancelTransaction: {
    operationId: 'cancelTransaction',
    method: 'post',
    path: paths.cancelTransactionPath,
    tag: 'Transactions',
    summary: 'Cancel a pending transaction',
    description: 'Moves a Pending (1) transaction to Cancelled (4). Anything else is refused.',
    auth: ['merchant'],
    request: EmptyRequestSchema,
    response: { status: 200, description: 'The cancelled transaction, status 4', schema: TransactionSchema },
    errors: ['not_found', 'transaction_not_cancellable'],
    idempotent: true,
  },
} as const satisfies Record<string, EndpointDescription>;
