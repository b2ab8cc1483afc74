import { z } from 'zod';
import { TRANSACTION_STATUSES } from './constants';
import type { TransactionStatusCode, TransactionStatusName } from './status-names';

export { Status, statusName, type TransactionStatusCode, type TransactionStatusEntry, type TransactionStatusName } from './status-names';

export const TransactionStatusCodeSchema = z.union(
  TRANSACTION_STATUSES.map((s) => z.literal(s.status)) as unknown as [
    z.ZodLiteral<TransactionStatusCode>,
    z.ZodLiteral<TransactionStatusCode>,
    ...z.ZodLiteral<TransactionStatusCode>[],
  ],
);
export const TransactionStatusNameSchema = z.enum(TRANSACTION_STATUSES.map((s) => s.statusName) as [TransactionStatusName, ...TransactionStatusName[]]);
