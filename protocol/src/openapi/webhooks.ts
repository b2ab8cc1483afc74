import { CALLBACK_DELIVERY_DEFAULTS } from '../callbacks';
import { DEFAULT_TOLERANCE_S } from '../signing';
import { WEBHOOK_EVENT_TYPES } from '../webhook-endpoints';
import { schemaRef } from './components';
import type { OpenApiDocument, OpenApiParameter } from './types';

/** The signature headers of every callback attempt, both schemes (docs/integrating.md#verifying-a-callback). */
const SIGNATURE_PARAMETERS: OpenApiParameter[] = [
  {
    name: 'HMAC-Random-Key',
    in: 'header',
    required: true,
    description: '32 lowercase hex characters, new for every attempt.',
    schema: { type: 'string', pattern: '^[0-9a-f]{32}$' },
  },
  {
    name: 'HMAC-Authorization',
    in: 'header',
    required: true,
    description:
      "Lowercase hex of HMAC-SHA256 keyed with the merchant's whole `whsec_` secret string (its UTF-8 bytes, prefix included), " +
      'over `HMAC-Random-Key` followed by the raw body (empty for a GET callback).',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "Standard Webhooks: the event's id, the same on every attempt of it; keep the ones you handled to drop a repeat.",
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: `Standard Webhooks: unix seconds of this attempt; refuse one more than ${DEFAULT_TOLERANCE_S} s from now (a replay).`,
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` and the base64 of HMAC-SHA256 keyed with the base64-decoded part of the secret after `whsec_`, over ' +
      '`<webhook-id>.<webhook-timestamp>.<raw body>`: any Standard Webhooks library verifies it.',
    schema: { type: 'string' },
  },
];

/** The signature headers of an event sent to a webhook endpoint: Standard Webhooks only, with the endpoint's own secret. */
const EVENT_SIGNATURE_PARAMETERS: OpenApiParameter[] = SIGNATURE_PARAMETERS.filter((p) => p.name.startsWith('webhook-')).map((p) =>
  p.name === 'webhook-id'
    ? { ...p, description: "Standard Webhooks: the event's `eventId`, the same on every attempt of it; keep the ones you handled to drop a repeat." }
    : p.name === 'webhook-signature'
      ? {
          ...p,
          description:
            "`v1,` and the base64 of HMAC-SHA256 keyed with the base64-decoded part of the endpoint's own secret after `whsec_`, over " +
            '`<webhook-id>.<webhook-timestamp>.<raw body>`: any Standard Webhooks library verifies it.',
        }
      : p,
);

const { timeoutS, retryScheduleS } = CALLBACK_DELIVERY_DEFAULTS;
const DELIVERY =
  `A 2xx within ${timeoutS} s is a delivery; anything else (a 3xx too: redirects are not followed) is tried again ` +
  `${retryScheduleS.join(', ')} s after the attempt before; 410 stops every further attempt.`;

const RESPONSES = {
  '2XX': { description: 'Delivered.' },
  '410': { description: 'Gone: the service stops trying this delivery.' },
  default: { description: 'Not delivered: tried again on the retry schedule.' },
};

/**
 * The document's `webhooks`: the transaction callback the service sends to a transaction's `callbackURL` on every
 * update, as a POST with the transaction (the default) or, with `callbackMethod: "GET"`, as a GET without a body.
 */
export function transactionWebhooks(): OpenApiDocument['webhooks'] {
  return {
    ...eventWebhooks(),
    transactionUpdated: {
      post: {
        operationId: 'transactionUpdated',
        summary: 'A transaction changed',
        description:
          "Sent to the transaction's `callbackURL` on every update (not on creation): the body is the transaction object as the " +
          `status query answers it, with its \`sequence\`. Verify the signatures over the raw body before reading it. ${DELIVERY}`,
        security: [],
        parameters: SIGNATURE_PARAMETERS,
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef('Transaction') } } },
        responses: RESPONSES,
      },
      get: {
        operationId: 'transactionUpdatedByGet',
        summary: 'A transaction changed (callbackMethod GET)',
        description:
          'With `callbackMethod: "GET"`: no body, the transaction number in the query; read the transaction with the status query. ' +
          `The signatures cover an empty body. ${DELIVERY}`,
        security: [],
        parameters: [
          { name: 'TransactionNumber', in: 'query', required: true, description: "The transaction's `TransactionNumber`.", schema: { type: 'string' } },
          {
            name: 'callbackType',
            in: 'query',
            required: true,
            description: 'Always `transaction_status`.',
            schema: { type: 'string', const: 'transaction_status' },
          },
          ...SIGNATURE_PARAMETERS,
        ],
        responses: RESPONSES,
      },
    },
  };
}

/**
 * One entry per event type a webhook endpoint may enable (`POST /webhook-endpoints`): the event, POSTed to every
 * endpoint that enabled its type and is not disabled, signed with that endpoint's secret.
 */
function eventWebhooks(): OpenApiDocument['webhooks'] {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map(({ type, when }) => {
      const name = type.replace(/\.(\w)/g, (_m, c: string) => c.toUpperCase()) + 'Event';
      return [
        type,
        {
          post: {
            operationId: name,
            summary: `Event ${type}`,
            description:
              `${when} Sent to each webhook endpoint that enabled \`${type}\` (or \`*\`) as the event object, \`type\` \`${type}\`. ` +
              `Verify the signature over the raw body before reading it. ${DELIVERY}`,
            security: [],
            parameters: EVENT_SIGNATURE_PARAMETERS,
            requestBody: { required: true, content: { 'application/json': { schema: schemaRef('WebhookEvent') } } },
            responses: RESPONSES,
          },
        },
      ];
    }),
  );
}
