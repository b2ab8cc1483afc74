import { z } from 'zod';

/** `:transactionNumber` in a path, checked before it reaches a query. */
export const TransactionNumberParam = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a transaction number');
