import type { EndpointAuth, EndpointDescription } from '../endpoints';

/**
 * The prose of the API reference, written once: the OpenAPI document's `info.description` renders it as
 * Markdown and the server's /docs page as HTML. Inline `code` in backticks is the only markup.
 */
export interface GuideSection {
  id: string;
  title: string;
  intro: string;
  points: string[];
}

export const API_GUIDE: GuideSection[] = [
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

export const TAG_DESCRIPTIONS: Record<EndpointDescription['tag'], string> = {
  Transactions: 'Create transactions, list and search them, read their status and cancel them.',
  Authorizations: 'Capture against, re-authorize, void and close authorizations.',
  Merchant: "The merchant's own settings, changed with the merchant's API key.",
  Consumer: 'What the hosted payment page and the browser SDKs call: the link id or the SDK session is the credential.',
  Sandbox: 'Sandbox-only tools: the test clock and the message outbox.',
  Service: 'Operational endpoints.',
};

export const AUTH_DESCRIPTIONS: Record<EndpointAuth, string> = {
  merchant: 'Merchant or branch API key (`sk_…`, `bk_…`)',
  merchant_key: 'Merchant API key (`sk_…`) only: a branch key cannot',
  device: 'Device ID (`dev_…`), in the body field `deviceId` or as the bearer token',
  client: "Client ID (`ck_…`) in the body, from one of its allowed origins (the request's `Origin`)",
  session: "SDK session token (`sess_…`) as the bearer token, from the card frame or the session's origin",
  none: 'Anyone: no credentials',
};

export function guideAsMarkdown(sections: GuideSection[] = API_GUIDE): string {
  return sections.map((s) => [`## ${s.title}`, '', s.intro, '', ...s.points.map((p) => `- ${p}`)].join('\n')).join('\n\n');
}
