import * as paths from '../endpoint-paths';
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointRequestSchema,
  DeletedWebhookEndpointSchema,
  UpdateWebhookEndpointRequestSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
} from '../webhook-endpoints';
import type { EndpointDescription } from './description';

const URL_RULES = 'The URL passes the checks a callbackURL does (https in production, a public address, no credentials in it).';

/** The merchant's webhook endpoints: where events go, each with its own secret and the types it enabled. */
export const WEBHOOK_ENDPOINT_ENDPOINTS = {
  createWebhookEndpoint: {
    operationId: 'createWebhookEndpoint',
    method: 'post',
    path: paths.createWebhookEndpointPath,
    tag: 'Merchant',
    summary: 'Add a webhook endpoint',
    description:
      'An endpoint gets every event of the types it enabled (`GET /docs/events` lists them; `*` for all) as a signed POST, retried like a ' +
      'callback. The answer carries its own `whsec_` secret, this once: verify its events with it the Standard Webhooks way. ' +
      `${URL_RULES} An unknown event type is a 400 \`validation_failed\`.`,
    auth: ['merchant_key'],
    request: CreateWebhookEndpointRequestSchema,
    response: { status: 200, description: 'The endpoint and its secret', schema: CreatedWebhookEndpointSchema },
    errors: ['callback_url_not_allowed'],
    idempotent: true,
  },
  listWebhookEndpoints: {
    operationId: 'listWebhookEndpoints',
    method: 'get',
    path: paths.listWebhookEndpointsPath,
    tag: 'Merchant',
    summary: 'List the webhook endpoints',
    description: 'Every webhook endpoint of the merchant, oldest first; never a secret.',
    auth: ['merchant_key'],
    response: { status: 200, description: 'The endpoints', schema: WebhookEndpointListSchema },
    errors: [],
    idempotent: false,
  },
  getWebhookEndpoint: {
    operationId: 'getWebhookEndpoint',
    method: 'get',
    path: paths.getWebhookEndpointPath,
    tag: 'Merchant',
    summary: 'Read a webhook endpoint',
    description: "One endpoint of the merchant; another merchant's is a 404.",
    auth: ['merchant_key'],
    response: { status: 200, description: 'The endpoint', schema: WebhookEndpointSchema },
    errors: ['not_found'],
    idempotent: false,
  },
  updateWebhookEndpoint: {
    operationId: 'updateWebhookEndpoint',
    method: 'post',
    path: paths.updateWebhookEndpointPath,
    tag: 'Merchant',
    summary: 'Change a webhook endpoint',
    description:
      'Changes the fields given (`url`, `enabledEvents`, `description`, `disabled`) and keeps the others; the secret stays. A disabled endpoint ' +
      `gets nothing until it is enabled again. ${URL_RULES}`,
    auth: ['merchant_key'],
    request: UpdateWebhookEndpointRequestSchema,
    response: { status: 200, description: 'The endpoint after the change', schema: WebhookEndpointSchema },
    errors: ['not_found', 'callback_url_not_allowed'],
    idempotent: true,
  },
  deleteWebhookEndpoint: {
    operationId: 'deleteWebhookEndpoint',
    method: 'delete',
    path: paths.deleteWebhookEndpointPath,
    tag: 'Merchant',
    summary: 'Remove a webhook endpoint',
    description: 'The endpoint gets nothing more (a delivery queued for it is not sent); its past deliveries stay in the log.',
    auth: ['merchant_key'],
    response: { status: 200, description: 'Removed', schema: DeletedWebhookEndpointSchema },
    errors: ['not_found'],
    idempotent: true,
  },
} as const satisfies Record<string, EndpointDescription>;
