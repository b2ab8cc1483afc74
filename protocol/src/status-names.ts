/**
 * The statuses by name, without a schema library (`@svc/protocol/status`): what @svc/node publishes as `Status`, and
 * what the rest of protocol re-exports from status.ts beside the statuses' schemas.
 */
import { TRANSACTION_STATUSES } from './constants';

export type TransactionStatusEntry = (typeof TRANSACTION_STATUSES)[number];
export type TransactionStatusCode = TransactionStatusEntry['status'];
export type TransactionStatusName = TransactionStatusEntry['statusName'];

/** Status codes by name: `Status.Approved === 0`. */
export const Status = Object.fromEntries(TRANSACTION_STATUSES.map((s) => [s.statusName, s.status])) as {
  readonly [E in TransactionStatusEntry as E['statusName']]: E['status'];
};

export function statusName(status: TransactionStatusCode): TransactionStatusName {
  const entry = TRANSACTION_STATUSES.find((s) => s.status === status);
  if (!entry) throw new RangeError(`unknown transaction status ${String(status)}`);
  return entry.statusName;
}
