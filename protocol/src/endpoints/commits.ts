import * as paths from '../endpoint-paths';
import { CommitRequestSchema, CommitResponseSchema } from '../sdk';
import type { EndpointDescription } from './description';

/** The merchant backend's commit of a widget payment. */
export const COMMIT_ENDPOINTS = {
  commit: {
    operationId: 'commit',
    method: 'post',
    path: paths.commitPath,
    tag: 'Transactions',
    summary: 'Commit a widget payment',
    description:
      'The merchant backend confirms a payment the consumer approved in the widget (status 10), within `secondsToCommit`. ' +
      'manual_capture captures `amount` (status 0); authorize places the hold and issues its token (status 5); tokenize issues a reusable token (status 0). ' +
      'Never more than the consumer approved; after the window the answer is commit_window_expired and the transaction reads 11.',
    auth: ['merchant', 'device'],
    request: CommitRequestSchema,
    response: { status: 200, description: 'The committed payment', schema: CommitResponseSchema },
    errors: [
      'not_found',
      'not_awaiting_commit',
      'commit_window_expired',
      'amount_exceeds_approved',
      'currency_mismatch',
      'callback_url_not_allowed',
      'processor_failure',
    ],
    idempotent: true,
  },
  commitByLink: {
    operationId: 'commitByLink',
    method: 'get',
    path: paths.commitByLinkPath,
    tag: 'Transactions',
    summary: 'Commit through the commitLink',
    description:
      'The `paymentCommit.commitLink` of a widget payment: commits the amount the consumer approved. The id is the secret; no credentials. ' +
      "Only the merchant's backend has it (status query, callbacks, its websocket); a browser never receives it.",
    auth: ['none'],
    response: { status: 200, description: 'The committed payment', schema: CommitResponseSchema },
    errors: ['not_found', 'not_awaiting_commit', 'commit_window_expired', 'processor_failure'],
    idempotent: false,
  },
} as const satisfies Record<string, EndpointDescription>;
