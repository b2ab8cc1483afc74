import { MAX_RECEIPT_BYTES, type Receipt } from '@svc/protocol';
import type { Clock } from '../../clock';
import type { Queryable } from '../../db/client';
import { ApiError, NotFoundError } from '../../errors';
import type { Principal } from '../../auth/principal';
import { findTransactionRowForPrincipal } from '../transactions';
import { findReceipt, upsertReceipt } from './receipts.queries';

/**
 * `POST /transactions/:transactionNumber/receipt` (docs/integrating.md#receipts): the POS keeps its receipt with the transaction.
 * The size is measured on the receipt's own JSON text; one over MAX_RECEIPT_BYTES is refused (413) before anything
 * is written, so the saved one stays.
 */
export async function saveReceipt(
  db: Queryable,
  clock: Clock,
  principal: Principal,
  transactionNumber: string,
  receipt: Record<string, unknown>,
): Promise<void> {
  const bytes = Buffer.byteLength(JSON.stringify(receipt), 'utf8');
  if (bytes > MAX_RECEIPT_BYTES) {
    throw new ApiError('payload_too_large', `The receipt is ${bytes} bytes of JSON; at most ${MAX_RECEIPT_BYTES} are kept. The receipt saved before stays.`);
  }
  const row = await findTransactionRowForPrincipal(db, principal, transactionNumber);
  if (!row) throw new NotFoundError('transaction');
  await upsertReceipt(db, { transactionId: row.id, merchantId: row.merchantId, receipt, savedAt: clock.now() });
}

/** `GET /transactions/:transactionNumber/receipt`: the receipt saved last; 404 before one is saved. */
export async function readReceipt(db: Queryable, principal: Principal, transactionNumber: string): Promise<Receipt> {
  const row = await findTransactionRowForPrincipal(db, principal, transactionNumber);
  if (!row) throw new NotFoundError('transaction');
  const saved = await findReceipt(db, row.id);
  if (!saved) throw new ApiError('not_found', 'No receipt has been saved for this transaction yet.');
  return { receipt: saved.receipt as Record<string, unknown>, savedAt: saved.savedAt.toISOString() };
}
