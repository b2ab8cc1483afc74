import * as paths from '../endpoint-paths';
import { CallbackLogSchema, RedeliverResponseSchema } from '../callbacks';
import { EmptyRequestSchema } from '../lifecycle-requests';
import type { EndpointDescription } from './description';

/** A transaction's callback deliveries: the log and a redelivery. */
export const CALLBACK_ENDPOINTS = {
  listCallbacks: {
    operationId: 'listCallbacks',
    method: 'get',
    path: paths.listCallbacksPath,
    tag: 'Transactions',
    summary: 'Callback delivery log',
    description: 'Every callback delivery of the transaction with its attempts: when, the HTTP status or the error, and how long it took.',
    auth: ['merchant'],
    response: { status: 200, description: 'The delivery log', schema: CallbackLogSchema },
    errors: ['not_found'],
    idempotent: false,
  },
  redeliverCallback: {
    operationId: 'redeliverCallback',
    method: 'post',
    path: paths.redeliverCallbackPath,
    tag: 'Transactions',
    summary: 'Send a callback again',
    description:
      'Starts a delivery again from the beginning of the retry schedule (a failed one, or a succeeded one to resend). Its past attempts stay in the log.',
    auth: ['merchant'],
    request: EmptyRequestSchema,
    response: { status: 202, description: 'Queued', schema: RedeliverResponseSchema },
    errors: ['not_found'],
    idempotent: true,
  },
} as const satisfies Record<string, EndpointDescription>;
