import * as paths from '../endpoint-paths';
import { AnswerAuthenticationRequestSchema, AuthenticationOutcomeSchema, AuthenticationReturnQuerySchema } from '../authentication';
import { HtmlPageSchema } from '../channels';
import { EmptyRequestSchema } from '../lifecycle-requests';
import { BrowserTransactionSchema } from '../transaction';
import type { EndpointDescription } from './description';

/** 3-D Secure: the page of the consumer's bank a card payment may send the consumer to, and its end (docs/integrating.md#3-d-secure). */
export const AUTHENTICATION_ENDPOINTS = {
  getAuthenticationPage: {
    operationId: 'getAuthenticationPage',
    method: 'get',
    path: paths.getAuthenticationPagePath,
    tag: 'Consumer',
    summary: "The bank's authentication page",
    description:
      'The `action.url` of a 202 `requires_action` payment answer: the page where the consumer answers the bank (3-D Secure), in the ' +
      "page's language (`?lang=` or the browser's). Opened in place of the hosted payment page, which it returns to when done, or in " +
      "a widget's dialog over the merchant page, where it says it has finished. In the sandbox it is the simulated bank page, with " +
      '"Complete authentication" and "Fail authentication". An unknown authentication answers a 404 page.',
    auth: ['none'],
    response: { status: 200, description: 'The page', schema: HtmlPageSchema, contentType: 'text/html' },
    pageAnswers: [{ status: 404, description: 'The 404 page of an unknown authentication', contentType: 'text/html' }],
    errors: ['rate_limited'],
    idempotent: false,
  },
  answerAuthentication: {
    operationId: 'answerAuthentication',
    method: 'post',
    path: paths.answerAuthenticationPath,
    tag: 'Sandbox',
    summary: "Answer the simulated bank's challenge",
    description:
      "The simulated bank page's buttons: `complete` authenticates the card holder and the payment goes on (approved, declined, " +
      'awaiting commit...); `fail` ends it as a decline `authentication_failed`. An authentication that has already ended answers ' +
      'its outcome again and changes nothing, so a second "Complete authentication" never charges twice.',
    auth: ['none'],
    request: AnswerAuthenticationRequestSchema,
    response: { status: 200, description: 'How the authentication ended, and where a top-level page returns to', schema: AuthenticationOutcomeSchema },
    errors: ['not_found', 'rate_limited'],
    idempotent: true,
    sandboxOnly: true,
  },
  cancelAuthentication: {
    operationId: 'cancelAuthentication',
    method: 'post',
    path: paths.cancelAuthenticationPath,
    tag: 'Consumer',
    summary: 'Cancel a 3-D Secure authentication',
    description:
      "Called by a widget's card frame with `Authorization: Bearer <sessionToken>` when the consumer closes the bank's dialog: the " +
      'authentication ends as failed, the payment is declined `authentication_failed`, and the widget reports `payment_cancelled`. ' +
      'An authentication that has already ended is left as it is.',
    auth: ['session'],
    request: EmptyRequestSchema,
    response: { status: 200, description: 'The transaction as a browser sees it', schema: BrowserTransactionSchema },
    errors: ['not_found', 'rate_limited'],
    idempotent: true,
  },
  returnFromAuthentication: {
    operationId: 'returnFromAuthentication',
    method: 'get',
    path: paths.returnFromAuthenticationPath,
    tag: 'Consumer',
    summary: "The consumer's return from the bank",
    description:
      "Where a processor's own 3-D Secure page (Stripe's, Adyen's) sends the consumer back: the return URL the service gave the " +
      'processor with the payment, naming it by its processor request key. A payment still waiting for the bank is completed with ' +
      "what the return carries (the processor's decision), once: a second return, or the processor's webhook that came first, " +
      "changes nothing. Then the consumer goes back to the link's payment page (303), or, in a widget's dialog, reads that the bank " +
      'is done while the widget follows the transaction. An unknown payment answers a 404 page.',
    auth: ['none'],
    query: AuthenticationReturnQuerySchema,
    response: { status: 200, description: "The page a widget's dialog shows once the bank is done", schema: HtmlPageSchema, contentType: 'text/html' },
    pageAnswers: [
      { status: 303, description: "Back to the link's payment page", redirect: true },
      { status: 404, description: 'The 404 page of an unknown payment', contentType: 'text/html' },
    ],
    errors: ['rate_limited'],
    idempotent: false,
  },
} as const satisfies Record<string, EndpointDescription>;
