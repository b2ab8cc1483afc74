import type { z } from 'zod';
import type { ApiErrorCode } from './error-codes';
import { allErrors } from './endpoint-errors';
import * as paths from './endpoint-paths';
import { InitTransactionRequestSchema } from './init-request';
import {
  AuthorizeRequestSchema,
  ClockAdvanceRequestSchema,
  ClockSchema,
  ConsumerPayRequestSchema,
  EmptyRequestSchema,
  HealthSchema,
  LivenessSchema,
  ReadinessSchema,
  PaymentLinkStateSchema,
  PayRequestSchema,
  PayResponseSchema,
  RefundRequestSchema,
  RefundResponseSchema,
  SandboxMessagesSchema,
  VoidRequestSchema,
} from './lifecycle-requests';
import { CallbackLogSchema, RedeliverResponseSchema } from './callbacks';
import {
  HtmlPageSchema,
  ReceiptSchema,
  SaveReceiptRequestSchema,
  SaveReceiptResponseSchema,
  StickerNextSchema,
  SvgImageSchema,
  TerminalCancelRequestSchema,
  TerminalCurrentSchema,
  TerminalTapRequestSchema,
} from './channels';
import { CommitResponseSchema, CommitRequestSchema, CreateSdkSessionRequestSchema, SdkPaymentRequestSchema, SdkSessionSchema } from './sdk';
import { BrowserTransactionSchema, TransactionSchema } from './transaction';
import {
  AllowedOriginRequestSchema,
  AuditLogPageSchema,
  CreateCredentialRequestSchema,
  CreatedCredentialSchema,
  CredentialListSchema,
  CredentialSchema,
  PaymentMethodsSchema,
  RolledWebhookSecretSchema,
  RollWebhookSecretRequestSchema,
  UpdatePaymentMethodsRequestSchema,
} from './merchant-admin';
import { ListTransactionsQuerySchema, TransactionPageSchema } from './transaction-list';
import { MerchantSettingsSchema, UpdateMerchantSettingsRequestSchema } from './merchant-settings';

export type EndpointAuth = 'merchant' | 'merchant_key' | 'device' | 'client' | 'session' | 'none';

/**
 * Every HTTP endpoint of the service, described once: the OpenAPI document and the /docs page are generated
 * from this table, and the server's routes parse their bodies with the same schemas.
 */
export interface EndpointDescription {
  operationId: string;
  method: 'get' | 'post';
  /** OpenAPI path template, e.g. /transactions/{transactionNumber} */
  path: string;
  tag: 'Transactions' | 'Authorizations' | 'Consumer' | 'Merchant' | 'Sandbox' | 'Service';
  summary: string;
  description: string;
  /**
   * Who may call: merchant (API or branch key), merchant_key (the merchant API key only), device, or nobody in
   * particular (the id in the path is the secret).
   */
  auth: readonly EndpointAuth[];
  request?: z.ZodType;
  /**
   * The query string's parameters, for a GET: an object schema over their text values (a repeated parameter arrives
   * as a list, `name[key]=value` as `name: { key: value }`). The server parses the query with it (400
   * `validation_failed` naming the parameter) and the OpenAPI document lists each field as a query parameter.
   */
  query?: z.ZodType;
  /** `contentType` for the pages and images the service serves (their body is not JSON); JSON otherwise. */
  response: { status: number; description: string; schema: z.ZodType; contentType?: 'text/html' | 'image/svg+xml' };
  /**
   * The refusals of the endpoint's own rules. What the rest of its description implies (a body, who may call, an
   * Idempotency-Key, parameters to check) and what every endpoint may meet are never written here: `allErrors`
   * (endpoint-errors.ts) adds them, and ENDPOINTS carries the whole list.
   */
  errors: readonly ApiErrorCode[];
  /** Accepts Idempotency-Key (every mutating POST). */
  idempotent: boolean;
  sandboxOnly?: boolean;
}

/**
 * The endpoint table, keyed by operation: the server mounts each entry (method, path, who may call, body schema,
 * idempotency) with a handler of its own (server/src/http/endpoint-router.ts), so a path is written here and nowhere
 * else. An entry keeps its own request schema's type, so a handler's body is typed from the table.
 */
const TABLE = {
  initTransaction: {
    operationId: 'initTransaction',
    method: 'post',
    path: paths.initTransactionPath,
    tag: 'Transactions',
    summary: 'Create a transaction',
    description:
      'Creates a payment request. With `isCent` the amount is in cents, otherwise in major units with at most two decimals. ' +
      'Leave `amount` out for an authorization whose amount comes later through /transactions/authorize. ' +
      'With products and no amount, the amount is the product sum; with both and a difference, `productSumMismatch` is true. ' +
      'A device ID may authenticate instead of an API key; the transaction then goes to that terminal.',
    auth: ['merchant', 'device'],
    request: InitTransactionRequestSchema,
    response: { status: 200, description: 'The new transaction, status 1 (Pending)', schema: TransactionSchema },
    errors: ['callback_url_not_allowed', 'messages_unavailable'],
    idempotent: true,
  },
  listTransactions: {
    operationId: 'listTransactions',
    method: 'get',
    path: paths.listTransactionsPath,
    tag: 'Transactions',
    summary: 'List and search transactions',
    description:
      'Newest first, a page at a time: pass `nextCursor` as `startingAfter` for the next page (new transactions never shift the pages after ' +
      'the first). Filters combine: `status` (several), `createdFrom` / `createdTo`, `methodType`, `minAmount` / `maxAmount` in cents, ' +
      '`deviceId`, `posData[key]=value`, and `q`, which finds a transaction number, a confirmation number, or the last four digits of a card. ' +
      "A merchant key sees all of the merchant's transactions, a branch key its branch's, a device ID its own.",
    auth: ['merchant', 'device'],
    query: ListTransactionsQuerySchema,
    response: { status: 200, description: 'A page of transactions, newest first', schema: TransactionPageSchema },
    errors: [],
    idempotent: false,
  },
  getTransaction: {
    operationId: 'getTransaction',
    method: 'get',
    path: paths.getTransactionPath,
    tag: 'Transactions',
    summary: 'Transaction status',
    description: "The transaction object, the same shape a callback carries. Another merchant's or branch's transaction answers 404.",
    auth: ['merchant', 'device'],
    response: { status: 200, description: 'The transaction', schema: TransactionSchema },
    errors: ['not_found'],
    idempotent: false,
  },
  cancelTransaction: {
    operationId: 'cancelTransaction',
    method: 'post',
    path: paths.cancelTransactionPath,
    tag: 'Transactions',
    summary: 'Cancel a pending transaction',
    description: 'Moves a Pending (1) transaction to Cancelled (4). Anything else is refused.',
    auth: ['merchant'],
    request: EmptyRequestSchema,
    response: { status: 200, description: 'The cancelled transaction, status 4', schema: TransactionSchema },
    errors: ['not_found', 'transaction_not_cancellable'],
    idempotent: true,
  },
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
      'processor_failure',
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
    errors: ['not_found', 'authorization_not_active', 'capture_in_flight', 'card_declined', 'processor_failure'],
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
    ],
    idempotent: true,
  },
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
    errors: ['not_found', 'nothing_to_refund', 'authorization_active', 'amount_exceeds_refundable', 'refund_declined', 'processor_failure'],
    idempotent: true,
  },
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
      'A decline leaves the transaction Declined (2); a processor failure Failed (12).',
    auth: ['none'],
    request: ConsumerPayRequestSchema,
    response: { status: 200, description: 'The page state after payment', schema: PaymentLinkStateSchema },
    errors: [
      'not_found',
      'invalid_card',
      'transaction_not_payable',
      'card_declined',
      'insufficient_funds',
      'processor_failure',
      'rate_limited',
      'too_many_declines',
    ],
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
    errors: ['not_found', 'rate_limited'],
    idempotent: false,
  },
  getPaymentQrCode: {
    operationId: 'getPaymentQrCode',
    method: 'get',
    path: paths.getPaymentQrCodePath,
    tag: 'Consumer',
    summary: 'QR code of a payment link',
    description: "An SVG QR code of the transaction's `qrURL`, for a POS screen or a printed invoice.",
    auth: ['none'],
    response: { status: 200, description: 'The QR code', schema: SvgImageSchema, contentType: 'image/svg+xml' },
    errors: ['not_found', 'rate_limited'],
    idempotent: false,
  },
  openSticker: {
    operationId: 'openSticker',
    method: 'get',
    path: paths.openStickerPath,
    tag: 'Consumer',
    summary: "A device's sticker",
    description:
      "The public link printed on a device's sticker (`stickerUrl`). 303 to the hosted page of the device's newest pending " +
      'transaction; when none is waiting, a "No payment is waiting" page (200) that moves on by itself once the cashier creates one ' +
      '(it polls `GET /s/{stickerCode}/next`). Cancelled, paid and timed-out transactions are never opened.',
    auth: ['none'],
    response: { status: 200, description: 'The waiting page (or 303 to the payment page)', schema: HtmlPageSchema, contentType: 'text/html' },
    errors: ['not_found', 'rate_limited'],
    idempotent: false,
  },
  nextStickerPayment: {
    operationId: 'nextStickerPayment',
    method: 'get',
    path: paths.nextStickerPaymentPath,
    tag: 'Consumer',
    summary: 'What a sticker opens now',
    description: "The payment page the sticker would open now, or `waiting`. The sticker's waiting page asks this every 2 seconds.",
    auth: ['none'],
    response: { status: 200, description: 'The next payment, or waiting', schema: StickerNextSchema },
    errors: ['not_found', 'rate_limited'],
    idempotent: false,
  },
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
    idempotent: false,
  },
  getMerchantSettings: {
    operationId: 'getMerchantSettings',
    method: 'get',
    path: paths.getMerchantSettingsPath,
    tag: 'Merchant',
    summary: "Read the merchant's settings",
    description:
      'The default `callbackURL` and `callbackMethod` a transaction gets when its `init` names no callbackURL, for the merchant and each of its ' +
      "branches (a branch's own default first, then the merchant's).",
    auth: ['merchant_key'],
    response: { status: 200, description: 'The settings', schema: MerchantSettingsSchema },
    errors: [],
    idempotent: false,
  },
  updateMerchantSettings: {
    operationId: 'updateMerchantSettings',
    method: 'post',
    path: paths.updateMerchantSettingsPath,
    tag: 'Merchant',
    summary: "Change the merchant's settings",
    description:
      "Changes the settings given and keeps the others; with `branchId`, that branch's. A default callbackURL passes the checks an init's " +
      'does (https in production, a public address, no credentials in it); `callbackURL: null` removes it.',
    auth: ['merchant_key'],
    request: UpdateMerchantSettingsRequestSchema,
    response: { status: 200, description: 'The settings after the change', schema: MerchantSettingsSchema },
    errors: ['not_found', 'callback_url_not_allowed'],
    idempotent: true,
  },
  createSdkSession: {
    operationId: 'createSdkSession',
    method: 'post',
    path: paths.createSdkSessionPath,
    tag: 'Consumer',
    summary: 'Start a widget session',
    description: "Called by the SDKs from the merchant page with the client ID; the request's Origin must be one of the client ID's allowed origins.",
    auth: ['client'],
    request: CreateSdkSessionRequestSchema,
    response: { status: 200, description: 'The session', schema: SdkSessionSchema },
    errors: ['rate_limited'],
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
      "The method is authorised for `amount` and the transaction waits in status 10 for the merchant backend's commit.",
    auth: ['session'],
    request: SdkPaymentRequestSchema,
    response: {
      status: 200,
      description:
        "The transaction, status 10, with paymentCommit, as a browser sees it: no commitLink, token or POS data (the merchant's backend reads those)",
      schema: BrowserTransactionSchema,
    },
    errors: ['invalid_card', 'card_declined', 'insufficient_funds', 'processor_failure', 'rate_limited', 'too_many_declines', 'payment_method_not_offered'],
    idempotent: true,
  },
  getSandboxClock: {
    operationId: 'getSandboxClock',
    method: 'get',
    path: paths.getSandboxClockPath,
    tag: 'Sandbox',
    summary: 'Read the test clock',
    description: 'The sandbox time that time-outs, commit windows, hold expiry and callback retries follow, on every instance.',
    auth: ['merchant'],
    response: { status: 200, description: 'The clock', schema: ClockSchema },
    errors: [],
    idempotent: false,
    sandboxOnly: true,
  },
  advanceSandboxClock: {
    operationId: 'advanceSandboxClock',
    method: 'post',
    path: paths.advanceSandboxClockPath,
    tag: 'Sandbox',
    summary: 'Move the test clock forward',
    description: 'Moves the sandbox clock forward by `seconds` and applies every time-out and expiry that is now due before answering.',
    auth: ['merchant'],
    request: ClockAdvanceRequestSchema,
    response: { status: 200, description: 'The clock after the move', schema: ClockSchema },
    errors: [],
    idempotent: true,
    sandboxOnly: true,
  },
  listSandboxMessages: {
    operationId: 'listSandboxMessages',
    method: 'get',
    path: paths.listSandboxMessagesPath,
    tag: 'Sandbox',
    summary: 'Messages the sandbox "sent"',
    description: 'The SMS and e-mails with payment links that init sent for `phone` and `email`, newest first, for this merchant.',
    auth: ['merchant'],
    response: { status: 200, description: 'The messages', schema: SandboxMessagesSchema },
    errors: [],
    idempotent: false,
    sandboxOnly: true,
  },
  terminalSimulator: {
    operationId: 'terminalSimulator',
    method: 'get',
    path: paths.terminalSimulatorPath,
    tag: 'Sandbox',
    summary: 'Terminal simulator',
    description:
      'A page that plays a terminal: type the device ID, or open `/sandbox/terminal#dev_…` (the fragment never reaches a server log). ' +
      "It shows the device's pending transaction live and taps a test card or a wallet on it, or cancels it as the consumer would.",
    auth: ['none'],
    response: { status: 200, description: 'The page', schema: HtmlPageSchema, contentType: 'text/html' },
    errors: [],
    idempotent: false,
    sandboxOnly: true,
  },
  terminalCurrent: {
    operationId: 'terminalCurrent',
    method: 'get',
    path: paths.terminalCurrentPath,
    tag: 'Sandbox',
    summary: "The terminal's pending transaction",
    description: "What the device's screen shows: its newest pending transaction (not timed out), or null.",
    auth: ['device'],
    response: { status: 200, description: 'The pending transaction, or null', schema: TerminalCurrentSchema },
    errors: [],
    idempotent: false,
    sandboxOnly: true,
  },
  terminalTap: {
    operationId: 'terminalTap',
    method: 'post',
    path: paths.terminalTapPath,
    tag: 'Sandbox',
    summary: 'Tap a test card or wallet on the terminal',
    description:
      "Pays one of the device's transactions as a consumer tapping a sandbox test card (any future expiry is assumed) or a wallet. " +
      'The answers are those of `POST /pay/{linkId}`: the page state, or 402/502 for a declined card or a processor failure. ' +
      'After a decline the consumer may tap again.',
    auth: ['device'],
    request: TerminalTapRequestSchema,
    response: { status: 200, description: 'The transaction as the page shows it after the payment', schema: PaymentLinkStateSchema },
    errors: ['not_found', 'transaction_not_payable', 'card_declined', 'insufficient_funds', 'processor_failure'],
    idempotent: true,
    sandboxOnly: true,
  },
  terminalCancel: {
    operationId: 'terminalCancel',
    method: 'post',
    path: paths.terminalCancelPath,
    tag: 'Sandbox',
    summary: 'The consumer cancels on the terminal',
    description: "Cancels one of the device's pending transactions (status 4), as a consumer pressing Cancel on the terminal.",
    auth: ['device'],
    request: TerminalCancelRequestSchema,
    response: { status: 200, description: 'The transaction as the page shows it, status 4', schema: PaymentLinkStateSchema },
    errors: ['not_found', 'transaction_not_cancellable'],
    idempotent: true,
    sandboxOnly: true,
  },
  listCredentials: {
    operationId: 'listCredentials',
    method: 'get',
    path: paths.listCredentialsPath,
    tag: 'Merchant',
    summary: "List the merchant's credentials",
    description:
      'Every API key, branch key, device ID and client ID of the merchant, revoked ones included, oldest first: each by its id, ' +
      "kind, hint (prefix and last four characters; never the key), branch, creation and revocation time, and a client ID's allowed origins.",
    auth: ['merchant_key'],
    response: { status: 200, description: 'The credentials', schema: CredentialListSchema },
    errors: [],
    idempotent: false,
  },
  createCredential: {
    operationId: 'createCredential',
    method: 'post',
    path: paths.createCredentialPath,
    tag: 'Merchant',
    summary: 'Create an API key, a branch key or a client ID',
    description:
      'The new credential works on every instance at once. Its value is in this answer only (the service keeps its hash); ' +
      'a replay under the same Idempotency-Key, by the same key, gives it again. Written to the audit log.',
    auth: ['merchant_key'],
    request: CreateCredentialRequestSchema,
    response: { status: 201, description: 'The credential and, once, its value', schema: CreatedCredentialSchema },
    errors: [],
    idempotent: true,
  },
  revokeCredential: {
    operationId: 'revokeCredential',
    method: 'post',
    path: paths.revokeCredentialPath,
    tag: 'Merchant',
    summary: 'Revoke a credential',
    description:
      "Every instance refuses the credential at once (401), and the websockets opened with it close; a revoked client ID's open " +
      'widget sessions can no longer pay. The key making the call cannot ' +
      'revoke itself (409 `own_credential_not_revocable`): create another first, switch to it, and revoke the old one with it. ' +
      'Revoking a revoked credential changes nothing. Written to the audit log.',
    auth: ['merchant_key'],
    request: EmptyRequestSchema,
    response: { status: 200, description: 'The revoked credential', schema: CredentialSchema },
    errors: ['not_found', 'own_credential_not_revocable'],
    idempotent: true,
  },
  addAllowedOrigin: {
    operationId: 'addAllowedOrigin',
    method: 'post',
    path: paths.addAllowedOriginPath,
    tag: 'Merchant',
    summary: "Add an origin to a client ID's allowed origins",
    description:
      'Pages of that origin may then use the client ID (and frame the card frame), on every instance at once. An origin already on ' +
      'the list changes nothing. Written to the audit log.',
    auth: ['merchant_key'],
    request: AllowedOriginRequestSchema,
    response: { status: 200, description: 'The client ID with its allowed origins', schema: CredentialSchema },
    errors: ['not_found', 'not_a_client_id', 'credential_revoked'],
    idempotent: true,
  },
  removeAllowedOrigin: {
    operationId: 'removeAllowedOrigin',
    method: 'post',
    path: paths.removeAllowedOriginPath,
    tag: 'Merchant',
    summary: "Remove an origin from a client ID's allowed origins",
    description:
      'Pages of that origin can no longer start a session with the client ID (403 `origin_not_allowed`), on every instance at once. ' +
      'An origin not on the list changes nothing. Written to the audit log.',
    auth: ['merchant_key'],
    request: AllowedOriginRequestSchema,
    response: { status: 200, description: 'The client ID with its allowed origins', schema: CredentialSchema },
    errors: ['not_found', 'not_a_client_id', 'credential_revoked'],
    idempotent: true,
  },
  rollWebhookSecret: {
    operationId: 'rollWebhookSecret',
    method: 'post',
    path: paths.rollWebhookSecretPath,
    tag: 'Merchant',
    summary: 'Roll the HMAC secret that signs callbacks',
    description:
      'Makes a new secret, returned in this answer only. For `overlapSeconds` (default 86400) callbacks are signed with both: ' +
      '`webhook-signature` carries a signature by each, `HMAC-Authorization` stays signed with the previous secret and ' +
      '`HMAC-Authorization-Next` carries the new one; after it, only the new secret signs. Written to the audit log (never the secret).',
    auth: ['merchant_key'],
    request: RollWebhookSecretRequestSchema,
    response: { status: 200, description: 'The new secret, once', schema: RolledWebhookSecretSchema },
    errors: [],
    idempotent: true,
  },
  getPaymentMethods: {
    operationId: 'getPaymentMethods',
    method: 'get',
    path: paths.getPaymentMethodsPath,
    tag: 'Merchant',
    summary: "The payment methods the merchant's widgets offer",
    description: 'A subset of `card`, `paypal`, `applepay`, `googlepay` (all four unless the merchant chose otherwise).',
    auth: ['merchant_key'],
    response: { status: 200, description: 'The payment methods', schema: PaymentMethodsSchema },
    errors: [],
    idempotent: false,
  },
  updatePaymentMethods: {
    operationId: 'updatePaymentMethods',
    method: 'post',
    path: paths.updatePaymentMethodsPath,
    tag: 'Merchant',
    summary: "Choose the payment methods the merchant's widgets offer",
    description:
      'New widget sessions offer only these (`paymentMethods` of `POST /sdk/sessions`), and a payment with another method is refused ' +
      'with 409 `payment_method_not_offered`. At least one. Written to the audit log.',
    auth: ['merchant_key'],
    request: UpdatePaymentMethodsRequestSchema,
    response: { status: 200, description: 'The payment methods now offered', schema: PaymentMethodsSchema },
    errors: [],
    idempotent: true,
  },
  listAuditLog: {
    operationId: 'listAuditLog',
    method: 'get',
    path: paths.listAuditLogPath,
    tag: 'Merchant',
    summary: "The merchant's audit log",
    description:
      'Every change to the credentials and settings, newest first: who (the credential, by id and hint, or the operator), what (the ' +
      'action and its target) and when; never a key or a secret. Query: `limit` (1–100, default 20) and `startingAfter` (the ' +
      '`nextCursor` of the page before). A bad parameter is a 400 `validation_failed` naming it.',
    auth: ['merchant_key'],
    response: { status: 200, description: 'One page of entries', schema: AuditLogPageSchema },
    errors: ['validation_failed'],
    idempotent: false,
  },
  health: {
    operationId: 'health',
    method: 'get',
    path: paths.healthPath,
    tag: 'Service',
    summary: 'Health',
    description: '200 when the service and its database answer; 503 otherwise.',
    auth: ['none'],
    response: { status: 200, description: 'Healthy', schema: HealthSchema },
    errors: [],
    idempotent: false,
  },
  liveness: {
    operationId: 'liveness',
    method: 'get',
    path: paths.livenessPath,
    tag: 'Service',
    summary: 'Liveness',
    description: '200 while the process serves requests, whatever its database does. For an orchestrator deciding whether to restart it.',
    auth: ['none'],
    response: { status: 200, description: 'Alive', schema: LivenessSchema },
    errors: [],
    idempotent: false,
  },
  readiness: {
    operationId: 'readiness',
    method: 'get',
    path: paths.readinessPath,
    tag: 'Service',
    summary: 'Readiness',
    description:
      'Whether this instance should receive traffic: 200 `ready` when the database answers, its migrations are applied, the LISTEN ' +
      'connection hears its own notifications and every background worker (callback dispatcher, expiry sweeps, processor-request ' +
      'worker) ticked recently; otherwise 503 `not_ready`. What each check found is on the metrics listener only (docs/operating.md).',
    auth: ['none'],
    response: { status: 200, description: 'Ready (503 with the same shape when not)', schema: ReadinessSchema },
    errors: [],
    idempotent: false,
  },
} as const satisfies Record<string, EndpointDescription>;

/** One endpoint of the table by its operation id, with its request schema's own type. */
export const ENDPOINT = TABLE;
export type OperationId = keyof typeof TABLE;

/** Every endpoint, in the table's order, with every error it may answer (allErrors). */
export const ENDPOINTS: EndpointDescription[] = Object.values(TABLE).map((endpoint) => ({ ...endpoint, errors: allErrors(endpoint) }));
