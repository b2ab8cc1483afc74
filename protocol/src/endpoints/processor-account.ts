import * as paths from '../endpoint-paths';
import { ConnectProcessorRequestSchema, MerchantProcessorSchema } from '../processor-account';
import type { EndpointDescription } from './description';

/** The merchant's own processor account. */
export const PROCESSOR_ACCOUNT_ENDPOINTS = {
  getMerchantProcessor: {
    operationId: 'getMerchantProcessor',
    method: 'get',
    path: paths.getMerchantProcessorPath,
    tag: 'Merchant',
    summary: "The processor account the merchant's payments go to",
    description: "The connector and whether the account is the merchant's own or the service's default, with a hint of its key: never a secret.",
    auth: ['merchant_key'],
    response: { status: 200, description: 'The processor account', schema: MerchantProcessorSchema },
    errors: [],
    idempotent: false,
  },
  connectMerchantProcessor: {
    operationId: 'connectMerchantProcessor',
    method: 'put',
    path: paths.connectMerchantProcessorPath,
    tag: 'Merchant',
    summary: "Connect the merchant's own processor account",
    description:
      "From now on the merchant's new payments go to this Stripe or Adyen account; payments made before stay with the account that made them. " +
      'The secrets are encrypted at rest and never answered; the API endpoints are the operator’s. Written to the audit log. ' +
      '409 `processor_unsupported` when the operator has not enabled merchant accounts (no encryption key).',
    auth: ['merchant_key'],
    request: ConnectProcessorRequestSchema,
    response: { status: 200, description: 'The processor account now used', schema: MerchantProcessorSchema },
    errors: ['processor_unsupported'],
    idempotent: true,
  },
} as const satisfies Record<string, EndpointDescription>;
