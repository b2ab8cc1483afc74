import * as paths from '../endpoint-paths';
import { HtmlPageSchema, SvgImageSchema } from '../channels';
import { RequiresActionSchema } from '../authentication';
import { ConsumerPayRequestSchema, PaymentLinkStateSchema } from '../lifecycle-requests';
import { CARD_PAYMENT_ERRORS, type EndpointDescription } from './description';

/** The consumer's hosted payment page: its state, its payment, the page and its QR code. */
export const HOSTED_PAGE_ENDPOINTS = {
  getPaymentLinkState: {
    operationId: 'getPaymentLinkState',
    method: 'get',
    path: paths.getPaymentLinkStatePath,
    tag: 'Consumer',
    summary: 'Hosted payment page state',
    description: "What the consumer's payment page shows: amount, currency, business, products and status. The link id is the only credential.",
    auth: ['none'],
    response: { status: 200, description: 'The page state', schema: PaymentLinkStateSchema },
    errors: ['not_found'],
    idempotent: false,
  },
  payPaymentLink: {
    operationId: 'payPaymentLink',
    method: 'post',
    path: paths.payPaymentLinkPath,
    tag: 'Consumer',
    summary: 'Pay a transaction as the consumer',
    description:
      'Pays with a card or a wallet. A sale becomes Approved (0); an authorization becomes Authorized (5) with a token. ' +
      'A decline leaves the transaction Declined (2); a processor failure Failed (12). A card whose bank asks for 3-D Secure answers 202 ' +
      '`requires_action`: the transaction is AwaitingAuthentication (15) and the consumer opens `action.url`. `installments` above the ' +
      "transaction's `maxInstallments` is refused.",
    auth: ['none'],
    request: ConsumerPayRequestSchema,
    response: { status: 200, description: 'The page state after payment', schema: PaymentLinkStateSchema },
    otherResponses: [{ status: 202, description: "The consumer's bank asks for 3-D Secure: open `action.url`", schema: RequiresActionSchema }],
    errors: ['not_found', 'invalid_card', 'transaction_not_payable', ...CARD_PAYMENT_ERRORS, 'rate_limited', 'too_many_declines'],
    idempotent: true,
  },
  getPaymentPage: {
    operationId: 'getPaymentPage',
    method: 'get',
    path: paths.getPaymentPagePath,
    tag: 'Consumer',
    summary: 'Hosted payment page',
    description:
      "The consumer's page (the `qrURL`): business, amount, products and status, the card fields and wallets while the transaction " +
      'is payable, and a page that says so once it is paid, declined, cancelled, timed out or expired. It follows the transaction live ' +
      'over the websocket. An unknown link answers a 404 page. Never framed, never cached, never indexed.',
    auth: ['none'],
    response: { status: 200, description: 'The page', schema: HtmlPageSchema, contentType: 'text/html' },
    pageAnswers: [{ status: 404, description: 'The 404 page of an unknown link', contentType: 'text/html' }],
    errors: ['rate_limited'],
    idempotent: false,
  },
  getPaymentQrCode: {
    operationId: 'getPaymentQrCode',
    method: 'get',
    path: paths.getPaymentQrCodePath,
    tag: 'Consumer',
    summary: 'QR code of a payment link',
    description:
      "An SVG QR code of the transaction's `qrURL`, for a POS screen or a printed invoice. An unknown or malformed link answers " +
      '404 `not_found` (a problem, not an image or a page).',
    auth: ['none'],
    response: { status: 200, description: 'The QR code', schema: SvgImageSchema, contentType: 'image/svg+xml' },
    errors: ['not_found', 'rate_limited'],
    idempotent: false,
  },
} as const satisfies Record<string, EndpointDescription>;
