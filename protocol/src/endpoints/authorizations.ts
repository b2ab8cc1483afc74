import * as paths from '../endpoint-paths';
import { AuthorizeRequestSchema, EmptyRequestSchema, PayRequestSchema, PayResponseSchema, VoidRequestSchema } from '../lifecycle-requests';
import { TransactionSchema } from '../transaction';
import type { EndpointDescription } from './description';

/** Authorizations: capture, void, re-authorize and close a hold. */
export const AUTHORIZATION_ENDPOINTS = {
  pay: {
    operationId: 'pay',
    method: 'post',
    path: paths.payPath,
    tag: 'Authorizations',
    summary: 'Capture against a token',
    description:
      'An authorization, named by its `token` or its `transactionNumber` (as void takes them): captures `amount` cents if it is at most ' +
      'what the hold still has; partial captures may repeat until the hold is used up (status 6, then 7). ' +
      'A tokenization token: charges a new sale transaction (status 0) in `currency`.',
    auth: ['merchant'],
    request: PayRequestSchema,
    response: { status: 200, description: 'The payment and the transaction after it', schema: PayResponseSchema },
    errors: [
      'not_found',
      'amount_exceeds_available',
      'authorization_not_active',
      'currency_mismatch',
      'card_declined',
      'insufficient_funds',
      'expired_card',
      'incorrect_cvc',
      'processor_failure',
      'processor_unsupported',
    ],
    idempotent: true,
  },
  void: {
    operationId: 'void',
    method: 'post',
    path: paths.voidPath,
    tag: 'Authorizations',
    summary: 'Void an authorization',
    description: 'Releases what the hold still holds (status 8). Captures already made are not refunded.',
    auth: ['merchant'],
    request: VoidRequestSchema,
    response: { status: 200, description: 'The voided transaction, status 8', schema: TransactionSchema },
    errors: ['not_found', 'authorization_not_active', 'capture_in_flight', 'not_an_authorization'],
    idempotent: true,
  },
  authorize: {
    operationId: 'authorize',
    method: 'post',
    path: paths.authorizePath,
    tag: 'Authorizations',
    summary: 'Re-authorize',
    description:
      'Releases what the current hold still holds and places a new hold of `amount` cents (status 5); later captures count against it. ' +
      'Also places the first hold of an authorization created without an amount. Allowed on status 5, 6 and 11.',
    auth: ['merchant'],
    request: AuthorizeRequestSchema,
    response: { status: 200, description: 'The transaction with its new hold, status 5', schema: TransactionSchema },
    errors: [
      'not_found',
      'authorization_not_active',
      'capture_in_flight',
      'card_declined',
      'insufficient_funds',
      'expired_card',
      'processor_failure',
      'processor_unsupported',
    ],
    idempotent: true,
  },
  closeAuthorization: {
    operationId: 'closeAuthorization',
    method: 'post',
    path: paths.closeAuthorizationPath,
    tag: 'Authorizations',
    summary: 'Close an authorization',
    description:
      'Releases the remainder of an authorization that has at least one successful capture and is not fully captured (status 9). ' +
      'Without a capture, use /transactions/void. Only processors that support it (alpha in the sandbox).',
    auth: ['merchant'],
    request: EmptyRequestSchema,
    response: { status: 200, description: 'The closed transaction, status 9', schema: TransactionSchema },
    errors: [
      'not_found',
      'not_an_authorization',
      'authorization_not_active',
      'capture_in_flight',
      'no_successful_payment',
      'nothing_to_release',
      'close_auth_unsupported',
      'processor_unsupported',
    ],
    idempotent: true,
  },
} as const satisfies Record<string, EndpointDescription>;
