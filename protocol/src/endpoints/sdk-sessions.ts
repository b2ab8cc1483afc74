import * as paths from '../endpoint-paths';
import { RequiresActionSchema } from '../authentication';
import { CreateSdkSessionRequestSchema, SdkPaymentRequestSchema, SdkSessionSchema } from '../sdk';
import { BrowserTransactionSchema } from '../transaction';
import { CARD_PAYMENT_ERRORS, type EndpointDescription } from './description';

/** The browser SDKs' widget sessions and the payment method they submit. */
export const SDK_SESSION_ENDPOINTS = {
  createSdkSession: {
    operationId: 'createSdkSession',
    method: 'post',
    path: paths.createSdkSessionPath,
    tag: 'Consumer',
    summary: 'Start a widget session',
    description:
      "Called by the SDKs from the merchant page with the client ID; the request's Origin must be one of the client ID's allowed origins. " +
      'A `tokenize` session needs a processor that saves cards (capability `savedCards`): 409 `processor_unsupported` otherwise.',
    auth: ['client'],
    request: CreateSdkSessionRequestSchema,
    response: { status: 200, description: 'The session', schema: SdkSessionSchema },
    errors: ['rate_limited', 'processor_unsupported'],
    idempotent: true,
  },
  submitSdkPayment: {
    operationId: 'submitSdkPayment',
    method: 'post',
    path: paths.submitSdkPaymentPath,
    tag: 'Consumer',
    summary: "Submit the consumer's payment method",
    description:
      'Called by the secure card frame (cards) or the Express component (wallets) with `Authorization: Bearer <sessionToken>`. ' +
      "The method is authorised for `amount` and the transaction waits in status 10 for the merchant backend's commit. A card " +
      'whose bank asks for 3-D Secure answers 202 `requires_action`: the transaction is AwaitingAuthentication (15) until the consumer ' +
      "answers `action.url` (the widget's dialog). `installments` above the session's `maxInstallments` is refused.",
    auth: ['session'],
    request: SdkPaymentRequestSchema,
    response: {
      status: 200,
      description:
        "The transaction, status 10, with paymentCommit, as a browser sees it: no commitLink, token or POS data (the merchant's backend reads those)",
      schema: BrowserTransactionSchema,
    },
    otherResponses: [{ status: 202, description: "The consumer's bank asks for 3-D Secure: open `action.url`", schema: RequiresActionSchema }],
    errors: ['invalid_card', ...CARD_PAYMENT_ERRORS, 'rate_limited', 'too_many_declines', 'payment_method_not_offered'],
    idempotent: true,
  },
} as const satisfies Record<string, EndpointDescription>;
