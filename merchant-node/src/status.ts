/**
 * The transaction statuses by name, at run time: `Status.Captured === 7` (docs/integrating.md#statuses). Write them
 * by name in code; the wire carries the number (`status`) and the name (`statusName`).
 */
export { Status, statusName, type TransactionStatusCode, type TransactionStatusName } from '@svc/protocol/status';
