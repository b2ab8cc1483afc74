import { CALLBACK_DELIVERY_DEFAULTS } from '../callbacks';
import { SDK_VERSIONS, WS_CLOSE_CODES } from '../constants';
import type { EndpointAuth, EndpointDescription } from '../endpoints/description';
import { SANDBOX_TEST_CARDS } from '../sandbox';
import { DEFAULT_TOLERANCE_S } from '../signing';
import { WEBSOCKET_PATH } from '../websocket';

/**
 * The prose of the API reference, written once: the OpenAPI document's `info.description` renders it as
 * Markdown and the server's /docs page as HTML. Inline `code` in backticks is the only markup.
 */
export interface GuideSection {
  id: string;
  title: string;
  intro: string;
  points: string[];
  /** Only for a sandbox service's reference (the test cards): production's leaves it out. */
  sandboxOnly?: true;
}

/** Authentication, amounts, errors and idempotency: what every call shares. */
const BASICS: GuideSection[] = [
  {
    id: 'authentication',
    title: 'Authentication',
    intro: 'Send a merchant API key as `Authorization: Bearer <key>` on every call that needs credentials.',
    points: [
      "A merchant API key (`sk_…`) acts for all of the merchant's branches; a branch API key (`bk_…`) for its own branch only.",
      'For compatibility with the original spec, the key may be sent as the body field `apiKey` instead of the header.',
      'A terminal authenticates with its device ID (`dev_…`), in the body field `deviceId` or (needed on a GET) as `Authorization: Bearer <device ID>`, on the endpoints that list devices among their callers. A transaction created with a device ID is pushed to that terminal.',
      'Client IDs (`ck_…`) belong to the front-end SDKs; a merchant endpoint answers them with 403 `client_id_not_allowed`.',
      'Missing or unknown credentials answer 401 `unauthorized`. A transaction of another merchant or branch answers 404, never 403.',
      'Requests are rate-limited per credential; over the limit the answer is 429 `rate_limited` with a `Retry-After` header.',
    ],
  },
  {
    id: 'amounts',
    title: 'Amounts',
    intro: 'Money is counted in minor units (cents); every accepted currency (USD, CAD, ILS, EUR, RUB) has two decimals.',
    points: [
      'On `POST /transactions/init`, `isCent: true` makes `amount` an integer of cents; otherwise `amount` is in major units with at most two decimals (`10.005` is refused with 400).',
      'Amounts of `pay` and `authorize` are always integer cents greater than 0.',
      'Products are in the same unit as the transaction amount; their sum is Σ (amount + vat − discount) × quantity.',
      'The transaction object reports `amount` in major units, as the spec does, and adds `amountCents`; `balance` is what an authorization still holds, in major units.',
    ],
  },
  {
    id: 'errors',
    title: 'Errors',
    intro: 'Every error is an RFC 9457 problem details object sent as `application/problem+json`.',
    points: [
      'Its fields are `type`, `title`, `status`, `detail`, `code`, `requestId` and, for 400 `validation_failed`, `errors`: a list of `{ path, message }`.',
      'Switch on `code`: it is stable. `title` and `detail` are for people, and `detail` says what to do about it.',
      "`type` is `/docs/errors#<code>` on this server: the code's entry in the error reference.",
      'Every response carries an `X-Request-Id` header; quote it when you ask for help. A 500 `internal_error` never carries internals.',
      'Responses may gain fields over time; ignore the fields you do not know.',
    ],
  },
  {
    id: 'void-or-refund',
    title: 'Void or refund',
    intro: 'Money that is only held is released; money that was settled is refunded. The service tells them apart and refuses the wrong one.',
    points: [
      "`POST /transactions/void` (or `closeAuth` after a capture) ends an authorization that still holds funds (status 5 or 6): the hold is released and nothing reaches the consumer's statement. A refund of such a transaction answers 409 `authorization_active`.",
      '`POST /transactions/{transactionNumber}/refund` gives settled money back: an approved sale, a committed widget payment, a charge of a saved card, or the captures of an authorization that no longer holds funds (7, or 8, 9, 11 with captures). A void never refunds what was captured.',
      'A pending transaction is cancelled (`POST /transactions/{transactionNumber}/cancel`); one that settled nothing (declined, cancelled, timed out, awaiting its commit, a tokenization, a hold voided without a capture) answers 409 `nothing_to_refund`.',
      'Refunds may be partial and repeated: status 13 `PartiallyRefunded`, then 14 `Refunded` once everything settled was given back; together they never exceed it (409 `amount_exceeds_refundable` names what is refundable). A refund the processor declines answers 402 `refund_declined` and stays in `refunds` as `failed`.',
    ],
  },
  {
    id: 'idempotency',
    title: 'Idempotency',
    intro: 'Every mutating POST takes an optional `Idempotency-Key` header (at most 255 characters), scoped to the merchant of the credential.',
    points: [
      "The same key with the same body within 24 hours replays the first response's status and body, with `Idempotent-Replayed: true`; nothing runs twice.",
      'The same key with a different body answers 422 `idempotency_key_reused`.',
      'The same key while the first request is still running answers 409 `idempotency_key_in_use`; retry a little later.',
      'Requests refused by validation are not stored, so a corrected request may use the same key. The effect and the stored response are committed together.',
    ],
  },
];

const { timeoutS, retryScheduleS, giveUpAfterS } = CALLBACK_DELIVERY_DEFAULTS;
const CARD_OUTCOMES: Record<(typeof SANDBOX_TEST_CARDS)[number]['outcome'], string> = {
  approved: 'approved',
  card_declined: 'declined (402 `card_declined`; the transaction reads Declined)',
  insufficient_funds: 'declined for funds (402 `insufficient_funds`)',
  processor_failure: 'a processor failure (502 `processor_failure`; the transaction reads Failed)',
};

/** Callbacks, the websocket, the test cards and the SDKs: what a merchant needs beyond the endpoints. */
const BEYOND_THE_ENDPOINTS: GuideSection[] = [
  {
    id: 'callbacks',
    title: 'Callbacks and their verification',
    intro:
      "Each update of a transaction with a `callbackURL` is sent to it: a POST whose body is the transaction object (the document's `webhooks` section), " +
      'or with `callbackMethod: "GET"` a GET with `TransactionNumber=<n>&callbackType=transaction_status` and no body. Creation is not an update.',
    points: [
      "Every attempt is signed twice with the merchant's `whsec_` secret. The spec's way: `HMAC-Random-Key` (32 lowercase hex characters, new per attempt) and `HMAC-Authorization`, the lowercase hex HMAC-SHA256 keyed with the whole secret string (prefix included) over the random key followed by the raw body (empty for GET).",
      'Standard Webhooks: `webhook-id` (the event id, the same on every attempt), `webhook-timestamp` (unix seconds of this attempt) and `webhook-signature` (`v1,<base64>` of HMAC-SHA256 keyed with the base64-decoded part of the secret after `whsec_`, over `<webhook-id>.<webhook-timestamp>.<raw body>`); any Standard Webhooks library verifies it.',
      `Verify on the raw body as received, never on re-serialised JSON, and refuse a \`webhook-timestamp\` more than ${DEFAULT_TOLERANCE_S} seconds from now (a replay). \`verifyCallback\` of the Node package \`@svc/node\` does both schemes; its \`generateTestCallbackHeaders\` signs a body for your own tests.`,
      "Delivery is at least once: keep the `webhook-id`s you handled and drop a repeat. Order by the transaction's `sequence`, which grows by one with every update.",
      `A 2xx within ${timeoutS} s succeeds; redirects are not followed; 410 stops every further attempt. A failure is tried again ${retryScheduleS.join(', ')} seconds after the attempt before; after communication errors, attempts go on every ${retryScheduleS.at(-1)} s until ${giveUpAfterS / 3600} hours after the first (the operator may change the schedule). The log is \`GET /transactions/{transactionNumber}/callbacks\`; \`POST /callbacks/{deliveryId}/redeliver\` sends one again.`,
      'A callback URL is https in production (http is allowed in the sandbox) and never a loopback, private, link-local or metadata address: a literal one is refused at `init` with 400 `callback_url_not_allowed`, and a name is checked again on every connection.',
    ],
  },
  {
    id: 'websocket',
    title: 'The websocket',
    intro: `\`${WEBSOCKET_PATH}\` on the service's origin pushes every update of a transaction as it commits, whichever instance made it. Every frame is one JSON text message with a \`type\`.`,
    points: [
      'A merchant backend authenticates the upgrade with `Authorization: Bearer <sk_ or bk_ key>`; a terminal with `?deviceId=dev_…`; the hosted page with `?link=<linkId>` and a widget with `?session=<SDK session token>`, each from its allowed origin.',
      'Send `{ "type": "subscribe", "transactionNumber", "afterSequence"? }`, or `{ "type": "subscribe", "scope": "merchant" }` for every transaction of the key (a branch key: its branch), or `"scope": "device"` with a device ID. The answer is `{ "type": "subscribed" }`.',
      'Updates arrive as `{ "type": "transaction.updated", "eventId", "sequence", "transaction" }`. With `afterSequence`, the updates after it are replayed first, in order, with no gap or duplicate before the live ones: reconnect with the last `sequence` you saw.',
      `A refusal is \`{ "type": "error", "code", "message" }\`. A message that is not JSON or not a known one closes the socket (${WS_CLOSE_CODES.POLICY_VIOLATION}); a client that does not read is closed with ${WS_CLOSE_CODES.SLOW_CONSUMER}, a revoked credential's socket with ${WS_CLOSE_CODES.CREDENTIAL_REVOKED}. Reconnect after ${WS_CLOSE_CODES.GOING_AWAY} and ${WS_CLOSE_CODES.INTERNAL_ERROR}.`,
      "Browsers (links, sessions) never receive `paymentCommit.commitLink`, payment tokens or POS data, and are held to a few sockets each (429 beyond); a merchant's or a device's socket is never refused because of them.",
    ],
  },
  {
    id: 'test-cards',
    title: 'Test cards',
    sandboxOnly: true,
    intro: 'In sandbox mode the sandbox processor answers by card number, with any future expiry and any 3-digit security code:',
    points: [
      ...SANDBOX_TEST_CARDS.map(
        (card) =>
          `\`${card.number.replace(/(\d{4})(?=\d)/g, '$1 ')}\`: ${CARD_OUTCOMES[card.outcome]}; processor \`${card.processor}\`, ` +
          `${card.supportsCloseAuth ? 'which supports closeAuth' : 'which does not support closeAuth (409 `close_auth_unsupported`)'}.`,
      ),
      'Wallets (PayPal, Apple Pay, Google Pay) are approved in the sandbox. The test clock (`POST /sandbox/clock/advance`) makes time-outs, commit windows, hold expiry and callback retries fall due; `GET /sandbox/messages` shows the SMS and e-mails a link would have sent.',
    ],
  },
  {
    id: 'sdks',
    title: 'The SDKs',
    intro: "Browser scripts for the merchant's pages, served by this service, and a package for the merchant's Node.js backend.",
    points: [
      `Elements ${SDK_VERSIONS.elements}: \`/sdk/elements/${SDK_VERSIONS.elements}/sdk.js\`, the \`ServiceFrontEndSDK\` global; the card fields are a frame of this service, the rest is drawn in the merchant's page.`,
      `The iframe SDK ${SDK_VERSIONS.iframe} (deprecated): \`/sdk/iframe/${SDK_VERSIONS.iframe}/sdk.js\`, the same API with the whole widget in one frame; moving to Elements is a change of script URL.`,
      `Express ${SDK_VERSIONS.express}: \`/sdk/express/${SDK_VERSIONS.express}/sdk.js\`, the \`<svc-ecom-sdk-express>\` element with PayPal, Apple Pay and Google Pay buttons.`,
      '`/sdk/manifest.json` gives each script\'s SRI `integrity`: pin it with `crossorigin="anonymous"`. A client ID (`ck_…`) and its allowed origins decide which pages may use them; a widget payment waits in AwaitingCommit (10) for the backend\'s commit.',
      'The backend: the npm package `@svc/node` (plain JavaScript for ESM and CommonJS, with types, no dependencies) has a typed client of every merchant endpoint (Idempotency-Keys, retries of 503, errors by `code`), `verifyCallback`, `generateTestCallbackHeaders` and the types of every wire shape.',
    ],
  },
];

export const API_GUIDE: GuideSection[] = [...BASICS, ...BEYOND_THE_ENDPOINTS];

/** The guide of a sandbox or a production service's reference. */
export function guideFor(sandbox: boolean): GuideSection[] {
  return API_GUIDE.filter((section) => sandbox || !section.sandboxOnly);
}

export const TAG_DESCRIPTIONS: Record<EndpointDescription['tag'], string> = {
  Transactions: 'Create transactions, list and search them, read their status, cancel them and refund what they settled.',
  Authorizations: 'Capture against, re-authorize, void and close authorizations.',
  Consumer: 'What the hosted payment page and the browser SDKs call: the link id or the SDK session is the credential.',
  Merchant:
    "The merchant's own settings (default callback, widget payment methods), credentials, allowed origins and HMAC secret, and the audit log: merchant API key only.",
  Sandbox: 'Sandbox-only tools: the test clock and the message outbox.',
  Service: 'Operational endpoints.',
};

export const AUTH_DESCRIPTIONS: Record<EndpointAuth, string> = {
  merchant: 'Merchant or branch API key (`sk_…`, `bk_…`)',
  merchant_key: 'Merchant API key (`sk_…`) only: a branch key answers 403 `credential_not_allowed`',
  device: 'Device ID (`dev_…`), in the body field `deviceId` or as the bearer token',
  client: "Client ID (`ck_…`) in the body, from one of its allowed origins (the request's `Origin`)",
  session: "SDK session token (`sess_…`) as the bearer token, from the card frame or the session's origin",
  none: 'Anyone: no credentials',
};

export function guideAsMarkdown(sections: GuideSection[] = API_GUIDE): string {
  return sections.map((s) => [`## ${s.title}`, '', s.intro, '', ...s.points.map((p) => `- ${p}`)].join('\n')).join('\n\n');
}
