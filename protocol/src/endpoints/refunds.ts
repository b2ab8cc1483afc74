import * as paths from '../endpoint-paths';
import { RefundRequestSchema, RefundResponseSchema } from '../lifecycle-requests';
import type { EndpointDescription } from './description';

/** Refunds of settled money. */
export const REFUND_ENDPOINTS = {
  refundTransaction: {
    operationId: 'refundTransaction',
    method: 'post',
    path: paths.refundTransactionPath,
    tag: 'Transactions',
    summary: 'Refund settled money',
    description:
      'Gives back `amount` cents (omitted: everything still refundable) of what was settled: an approved sale, a committed payment, a charge ' +
      'of a saved card, or the captures of an authorization that no longer holds funds (7, or 8, 9, 11 with captures). Partial refunds may ' +
      'repeat until all is refunded (status 13, then 14); together they never exceed what was settled. A hold is released with void, never ' +
      'refunded; a pending transaction is cancelled. A declined refund is kept as `failed` and the status does not change. When the processor ' +
      'does not answer, the refund stays `pending` and is asked again with the same request key until it is answered (never reversed).',
    auth: ['merchant'],
    request: RefundRequestSchema,
    response: { status: 200, description: 'The refund and the transaction after it', schema: RefundResponseSchema },
    errors: [
      'not_found',
      'nothing_to_refund',
      'authorization_active',
      'amount_exceeds_refundable',
      'refund_declined',
      'processor_failure',
      'processor_unsupported',
    ],
    idempotent: true,
  },
} as const satisfies Record<string, EndpointDescription>;
