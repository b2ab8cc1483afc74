/**
 * The contract's constant lists, with no schema library behind them: browser bundles import these from
 * `@svc/protocol/constants` (importing the package index would evaluate every zod schema). The schemas of the other
 * files are built from the same lists.
 */

/** Currencies the service accepts. Every one of them has two decimals (minor unit = 1/100). */
export const CURRENCIES = ['USD', 'CAD', 'ILS', 'EUR', 'RUB'] as const;
export const MINOR_UNITS_PER_MAJOR = 100;
/** Largest amount in cents the service accepts (10 billion units); keeps sums far inside Number.MAX_SAFE_INTEGER. */
export const MAX_AMOUNT_CENTS = 1_000_000_000_000;

export const METHOD_TYPES = ['sale', 'authorize', 'manual_capture', 'tokenize'] as const;
/**
 * The transaction's `SMS` field: `Pending` while the link SMS waits in the outbox for its provider to accept it
 * (production; retried), `Sent` once it did, `Failed` once every attempt was refused.
 */
export const SMS_STATES = ['Not requested', 'Pending', 'Sent', 'Failed'] as const;
export const WALLET_METHODS = ['paypal', 'applepay', 'googlepay'] as const;
/** The languages every consumer surface speaks (docs/languages.md); `en` is the default and the fallback. */
export const LANGUAGES = ['en', 'he', 'ar', 'ru', 'fr', 'de', 'es'] as const;
/** The languages written right to left. */
export const RTL_LANGUAGES = ['he', 'ar'] as const;

/** The status table (docs/integrating.md#statuses). `status` is the number on the wire, `statusName` the name. */
export const TRANSACTION_STATUSES = [
  { status: 0, statusName: 'Approved', meaning: 'paid: a sale approved, an SDK payment committed and captured, or a card tokenized' },
  { status: 1, statusName: 'Pending', meaning: 'created, waiting for the consumer' },
  { status: 2, statusName: 'Declined', meaning: 'the processor declined the payment method' },
  { status: 3, statusName: 'TimedOut', meaning: 'nobody paid before timeoutDate' },
  { status: 4, statusName: 'Cancelled', meaning: 'cancelled by the merchant before payment' },
  { status: 5, statusName: 'Authorized', meaning: 'authorization active, nothing captured yet' },
  { status: 6, statusName: 'PartiallyCaptured', meaning: 'authorization active, captures made, some still available' },
  { status: 7, statusName: 'Captured', meaning: 'the whole authorization captured' },
  { status: 8, statusName: 'Voided', meaning: 'authorization voided, hold released' },
  { status: 9, statusName: 'AuthorizationClosed', meaning: 'closed by closeAuth, remainder released' },
  { status: 10, statusName: 'AwaitingCommit', meaning: "SDK payment accepted, waiting for the merchant backend's commit" },
  { status: 11, statusName: 'Expired', meaning: 'commit window or authorization hold ran out; any hold released' },
  { status: 12, statusName: 'Failed', meaning: 'the processor failed (not a decline)' },
  { status: 13, statusName: 'PartiallyRefunded', meaning: 'some of the settled money was refunded' },
  { status: 14, statusName: 'Refunded', meaning: 'all of the settled money was refunded' },
  {
    status: 15,
    statusName: 'AwaitingAuthentication',
    meaning: "the consumer's bank asked for 3-D Secure authentication; the payment goes on when the consumer completes it",
  },
] as const;

/** How a 3-D Secure authentication went (the confirmation's `threeDSecure.flow`): without the consumer, or with the bank's challenge. */
export const THREE_DS_FLOWS = ['frictionless', 'challenge'] as const;
/** The largest number of payments (`maxInstallments`, `installments`) a card payment may be split into. */
export const MAX_INSTALLMENTS = 36;

/**
 * The statuses a refund moves a transaction from, and to (docs/integrating.md#refunds): settled money only. A sale or
 * a committed payment (Approved), the captures of an authorization that no longer holds funds (Captured; Voided,
 * AuthorizationClosed or Expired with captures), and a transaction refunded in part. A refund that takes what is left
 * ends in Refunded (14), any other in PartiallyRefunded (13); Refunded takes no further refund.
 */
export const REFUNDABLE_STATUSES = [0, 7, 8, 9, 11, 13] as const;

/** Why a merchant gives money back (`POST /transactions/:transactionNumber/refund`'s `reason`). */
export const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent', 'other'] as const;
/** A refund's state: `pending` while the processor has not answered (the worker asks again with the same key). */
export const REFUND_STATES = ['pending', 'succeeded', 'failed'] as const;

/** The SDK's `config({ mode })`. */
export const SDK_MODES = ['sandbox', 'production'] as const;
/** The card frame's fields, as validation errors name them. */
export const CARD_FIELDS = ['number', 'expiry', 'cvc'] as const;

/** Script versions served under {sdk_url} (docs/integrating.md#browser-sdks). */
export const SDK_VERSIONS = { elements: '1.1.1', iframe: '1.0.9', express: '1.0.0' } as const;
export const SDK_METHOD_TYPES = ['manual_capture', 'tokenize', 'authorize'] as const;
export const PAYMENT_METHODS = ['card', 'paypal', 'applepay', 'googlepay'] as const;

/**
 * `config({ appearance })` / `update({ appearance })` (sdk-elements/README.md#appearance), in the shape of Stripe's
 * Appearance API: a theme, variables, and rules keyed by these selectors. The pages of the service's origin (Elements'
 * card frame, the iframe widget page) check every value themselves (sdk-core's shared/appearance.ts) and drop what
 * they refuse; Elements' element applies what its card frame accepted.
 */
export const APPEARANCE_THEMES = ['default', 'night', 'flat'] as const;
export const APPEARANCE_VARIABLES = [
  'colorPrimary',
  'colorBackground',
  'colorText',
  'colorDanger',
  'colorSuccess',
  'fontFamily',
  'fontSizeBase',
  'spacingUnit',
  'borderRadius',
] as const;
export const APPEARANCE_SELECTORS = ['.Input', '.Input:focus', '.Input--invalid', '.Label', '.Error', '.Tab', '.Tab--selected', '.Button'] as const;
/**
 * What an accepted declaration of an appearance is made of: a CSS property (`border-color`, `--svc-color-accent`) and a
 * value of plain CSS characters only (letters, digits, space, `#%.,()-+*_/'"`; no `\`, `;`, `:`, `{`, `}`, `@`, `!`,
 * `<`, `>`, newline), so neither can leave its declaration or its rule. The checker (sdk-core's shared/appearance.ts)
 * refuses any other value; the card frame's `look` message carries only such pairs.
 */
export const APPEARANCE_CSS_PROPERTY = /^(?:--)?[a-z][a-z-]*$/;
export const APPEARANCE_CSS_VALUE = /^[A-Za-z0-9 #%.,()\-+*_/'"]*$/;

/** Codes the SDKs' `error` callback (and Express's onError) report; each message says what to do. */
export const SDK_ERROR_CODES = [
  'config_invalid',
  'not_configured',
  'container_not_found',
  'payment_in_progress',
  'client_id_unknown',
  'origin_not_allowed',
  'session_expired',
  'invalid_card',
  // pay() before the shopper filled in the card fields (or while the widget still loads): nothing was sent.
  'fields_incomplete',
  'card_declined',
  'insufficient_funds',
  // The shopper's bank did not confirm the payment (3-D Secure failed or was not completed in time).
  'authentication_failed',
  'processor_failure',
  // An amount or currency that is not valid (pay()'s options, or Express's `amount` prop): the one amount code of every SDK.
  'invalid_amount',
  'network_error',
  'frame_unavailable',
  'internal_error',
  // Express (sdk-express/README.md): a wallet sheet the consumer closed, a `cssUrl` that did not load (the buttons keep working).
  'payment_cancelled',
  'css_load_failed',
  // Deprecated alias of `invalid_amount`, which Elements and the iframe SDK reported before: never reported any more,
  // kept so that an integration comparing with it still compiles (the SDK READMEs list it).
  'amount_invalid',
] as const;

/**
 * Why an Express wallet button cannot pay (`onReady`'s `{ canPay: false, reason }`), when it is not an SDK error code
 * (`invalid_amount`, or the session's failure such as `client_id_unknown`): the service's session does not offer the
 * method, the browser has no API for it, the browser says no wallet is set up, or the page may not use it (a
 * `NotAllowedError`, e.g. a frame without the `payment` permission).
 */
export const EXPRESS_UNAVAILABLE_REASONS = ['method_not_offered', 'browser_unsupported', 'no_wallet_setup', 'not_allowed'] as const;

/** The `source` of every postMessage between the Elements host and the card frame. */
export const POST_MESSAGE_SOURCES = { host: 'svc-elements-host', frame: 'svc-card-frame' } as const;
/** The `source` of every postMessage between the iframe SDK's loader (merchant page) and its widget page. */
export const IFRAME_MESSAGE_SOURCES = { loader: 'svc-iframe-loader', widget: 'svc-iframe-widget' } as const;
/** The `ServiceFrontEndSDK` methods that take the merchant's callback for an event. */
export const SDK_CALLBACK_NAMES = ['frameDimensions', 'paymentSelected', 'paying', 'paymentMethodValidationStatus', 'error'] as const;
/** The elements of the merchant page the SDK may be told to use and find missing (config's visualizer, payButtonId). */
export const SDK_PAGE_ELEMENTS = ['visualizer', 'payButton'] as const;
/**
 * The console warnings the SDK's engine (and the iframe SDK's widget page) has the merchant page print: an integration
 * mistake that is not an error, and the iframe SDK's deprecation (sdk-elements/README.md#warnings-debug-mode).
 */
export const SDK_PAGE_WARNINGS = ['visualizer-missing', 'pay-button-missing', 'pay-without-callback', 'appearance-refused', 'sdk-deprecated'] as const;

/**
 * The prefix of every credential and secret the service issues (docs/integrating.md#credentials): the one place they are spelled. The
 * server issues them with these, the schemas check them, the documents name them.
 */
export const CREDENTIAL_PREFIXES = {
  merchant_key: 'sk_',
  branch_key: 'bk_',
  device: 'dev_',
  client: 'ck_',
  /** An SDK session's token. */
  session: 'sess_',
  /** A merchant's callback signing secret (the Standard Webhooks format). */
  signing_secret: 'whsec_',
} as const;

/**
 * Why the server closed the websocket (here, not in websocket.ts, so the browser bundles read them without zod). Reconnect on
 * 1001 and 1011 (with `afterSequence` to catch up); fix the client on the others.
 */
export const WS_CLOSE_CODES = {
  /** The server is shutting down: reconnect, to another instance if there is one. */
  GOING_AWAY: 1001,
  /** A binary frame: only JSON text frames are understood. */
  UNSUPPORTED_DATA: 1003,
  /** A message that is not JSON or not one of the client messages; an `error` frame with `malformed_message` precedes it. */
  POLICY_VIOLATION: 1008,
  /** A frame larger than WS_MAX_MESSAGE_BYTES. */
  MESSAGE_TOO_BIG: 1009,
  /** The server failed; reconnect and resubscribe with `afterSequence`. */
  INTERNAL_ERROR: 1011,
  /** The client did not read its messages fast enough; reconnect and resubscribe with `afterSequence`. */
  SLOW_CONSUMER: 4008,
  /** The credential the socket was opened with was revoked or deleted: do not reconnect with it. */
  CREDENTIAL_REVOKED: 4001,
} as const;
