import * as paths from '../endpoint-paths';
import { ReceiptSchema, SaveReceiptRequestSchema, SaveReceiptResponseSchema } from '../channels';
import type { EndpointDescription } from './description';

/** The POS receipt kept with a transaction. */
export const RECEIPT_ENDPOINTS = {
  saveReceipt: {
    operationId: 'saveReceipt',
    method: 'post',
    path: paths.saveReceiptPath,
    tag: 'Transactions',
    summary: 'Save the POS receipt',
    description:
      "Keeps the receipt the POS made for the transaction (the transaction's `posReceiptsEndpoint`): any JSON object up to 64 KB. " +
      'A later save replaces it; one over 64 KB is refused with 413 and the saved one stays.',
    auth: ['merchant', 'device'],
    request: SaveReceiptRequestSchema,
    response: { status: 200, description: 'Saved', schema: SaveReceiptResponseSchema },
    errors: ['not_found'],
    idempotent: true,
  },
  getReceipt: {
    operationId: 'getReceipt',
    method: 'get',
    path: paths.getReceiptPath,
    tag: 'Transactions',
    summary: 'Read the POS receipt',
    description: 'The receipt saved last, and when. 404 before one is saved.',
    auth: ['merchant', 'device'],
    response: { status: 200, description: 'The receipt', schema: ReceiptSchema },
    errors: ['not_found'],
    idempotent: false,
  },
} as const satisfies Record<string, EndpointDescription>;
