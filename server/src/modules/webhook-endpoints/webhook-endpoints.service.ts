import {
  MAX_WEBHOOK_ENDPOINTS,
  type CreatedWebhookEndpoint,
  type CreateWebhookEndpointRequestSchema,
  type UpdateWebhookEndpointRequestSchema,
  type WebhookEndpoint,
} from '@svc/protocol';
import type { z } from 'zod';
import type { Queryable } from '../../db/client';
import type { Env } from '../../env';
import { ApiError, NotFoundError } from '../../errors';
import { assertCallbackUrlAllowed } from '../callbacks';
import { generateHmacSecret } from '../merchants';
import * as q from './webhook-endpoints.queries';

export type CreateWebhookEndpoint = z.output<typeof CreateWebhookEndpointRequestSchema>;
export type UpdateWebhookEndpoint = z.output<typeof UpdateWebhookEndpointRequestSchema>;

/** The endpoint as the API answers it: never its secret. */
export function toWebhookEndpoint(row: q.WebhookEndpointRow): WebhookEndpoint {
  return {
    endpointId: row.id,
    url: row.url,
    enabledEvents: row.enabledEvents,
    description: row.description,
    disabled: row.disabled,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * `POST /webhook-endpoints` and `pnpm svc webhook-endpoints add`: a new endpoint with a secret of its own, answered this
 * once. Its URL passes the checks a callbackURL does (callback-url.ts).
 */
export async function createWebhookEndpoint(
  db: Queryable,
  env: Env,
  merchantId: string,
  input: CreateWebhookEndpoint,
  now: Date,
): Promise<CreatedWebhookEndpoint> {
  assertCallbackUrlAllowed(input.url, env, 'url');
  // Every event goes to every endpoint that enabled it: a bound keeps one change's deliveries few.
  if ((await q.countWebhookEndpoints(db, merchantId)) >= MAX_WEBHOOK_ENDPOINTS) {
    throw new ApiError('validation_failed', `A merchant has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; remove one first.`, {
      errors: [{ path: 'url', message: `at most ${MAX_WEBHOOK_ENDPOINTS} endpoints` }],
    });
  }
  const secret = generateHmacSecret();
  const row = await q.insertWebhookEndpoint(db, {
    merchantId,
    url: input.url,
    enabledEvents: input.enabledEvents,
    description: input.description ?? null,
    secret,
    createdAt: now,
    updatedAt: now,
  });
  return { endpoint: toWebhookEndpoint(row), secret };
}

export async function listWebhookEndpoints(db: Queryable, merchantId: string): Promise<{ data: WebhookEndpoint[] }> {
  return { data: (await q.listWebhookEndpoints(db, merchantId)).map(toWebhookEndpoint) };
}

/** One endpoint of the merchant's; another merchant's is not found. */
export async function getWebhookEndpoint(db: Queryable, merchantId: string, endpointId: string): Promise<WebhookEndpoint> {
  const row = await q.findWebhookEndpoint(db, merchantId, endpointId);
  if (!row) throw new NotFoundError('webhook endpoint');
  return toWebhookEndpoint(row);
}

/** Changes the fields given; the secret stays. */
export async function updateWebhookEndpoint(
  db: Queryable,
  env: Env,
  merchantId: string,
  endpointId: string,
  update: UpdateWebhookEndpoint,
  now: Date,
): Promise<WebhookEndpoint> {
  if (update.url !== undefined) assertCallbackUrlAllowed(update.url, env, 'url');
  const row = await q.updateWebhookEndpoint(db, merchantId, endpointId, {
    ...(update.url !== undefined && { url: update.url }),
    ...(update.enabledEvents !== undefined && { enabledEvents: update.enabledEvents }),
    ...(update.description !== undefined && { description: update.description }),
    ...(update.disabled !== undefined && { disabled: update.disabled }),
    updatedAt: now,
  });
  if (!row) throw new NotFoundError('webhook endpoint');
  return toWebhookEndpoint(row);
}

export async function deleteWebhookEndpoint(db: Queryable, merchantId: string, endpointId: string, now: Date): Promise<{ endpointId: string; deleted: true }> {
  if (!(await q.removeWebhookEndpoint(db, merchantId, endpointId, now))) throw new NotFoundError('webhook endpoint');
  return { endpointId, deleted: true };
}
