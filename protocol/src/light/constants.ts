/**
 * Wire values the light validators need that `../constants` does not hold as plain lists: the status table is a list
 * of entries. `light.test.ts` checks each against its zod original.
 */
import { TRANSACTION_STATUSES } from '../constants';

export const TRANSACTION_STATUS_CODES = TRANSACTION_STATUSES.map((s) => s.status);
export const TRANSACTION_STATUS_NAMES = TRANSACTION_STATUSES.map((s) => s.statusName);
