import {
  MAX_WEBHOOK_ENDPOINTS,
  type CreatedWebhookEndpoint,
  type CreateWebhookEndpointRequestSchema,
  type UpdateWebhookEndpointRequestSchema,
  type WebhookEndpoint,
} from '@svc/protocol';
import type { z } from 'zod';
import type { Queryable, Tx } from '../../db/client';
import type { Env } from '../../env';
import { ApiError, NotFoundError } from '../../errors';
import { recordAudit, type AuditActorRef } from '../audit';
import { assertCallbackUrlAllowed } from '../callbacks';
import { generateHmacSecret } from '../merchants';
import * as q from './webhook-endpoints.queries';

export type CreateWebhookEndpoint = z.output<typeof CreateWebhookEndpointRequestSchema>;
export type UpdateWebhookEndpoint = z.output<typeof UpdateWebhookEndpointRequestSchema>;

/** Who changes an endpoint, and when: where events go is as sensitive as who may call, so each change is audited. */
export interface EndpointChange {
  actor: AuditActorRef;
  at: Date;
}

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
  tx: Tx,
  env: Env,
  merchantId: string,
  input: CreateWebhookEndpoint,
  change: EndpointChange,
): Promise<CreatedWebhookEndpoint> {
  const now = change.at;
  assertCallbackUrlAllowed(input.url, env, 'url');
  // Every event goes to every endpoint that enabled it: a bound keeps one change's deliveries few. Held under
  // concurrent creates: the merchant's endpoints are claimed, then the insert itself is guarded by the count.
  await q.claimMerchantEndpoints(tx, merchantId);
  const secret = generateHmacSecret();
  const row = await q.insertWebhookEndpointBelow(
    tx,
    { merchantId, url: input.url, enabledEvents: input.enabledEvents, description: input.description ?? null, secret, createdAt: now, updatedAt: now },
    MAX_WEBHOOK_ENDPOINTS,
  );
  if (!row) {
    throw new ApiError('validation_failed', `A merchant has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; remove one first.`, {
      errors: [{ path: 'url', message: `at most ${MAX_WEBHOOK_ENDPOINTS} endpoints` }],
    });
  }
  await recordAudit(tx, {
    merchantId,
    actor: change.actor,
    action: 'webhook_endpoint.created',
    at: now,
    details: { endpointId: row.id, callbackOrigin: new URL(row.url).origin, enabledEvents: row.enabledEvents },
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
  change: EndpointChange,
): Promise<WebhookEndpoint> {
  const now = change.at;
  if (update.url !== undefined) assertCallbackUrlAllowed(update.url, env, 'url');
  const row = await q.updateWebhookEndpoint(db, merchantId, endpointId, {
    ...(update.url !== undefined && { url: update.url }),
    ...(update.enabledEvents !== undefined && { enabledEvents: update.enabledEvents }),
    ...(update.description !== undefined && { description: update.description }),
    ...(update.disabled !== undefined && { disabled: update.disabled }),
    updatedAt: now,
  });
  if (!row) throw new NotFoundError('webhook endpoint');
  await recordAudit(db, {
    merchantId,
    actor: change.actor,
    action: 'webhook_endpoint.updated',
    at: now,
    details: {
      endpointId,
      ...(update.url !== undefined && { callbackOrigin: new URL(update.url).origin }),
      ...(update.enabledEvents !== undefined && { enabledEvents: update.enabledEvents }),
      ...(update.disabled !== undefined && { disabled: update.disabled }),
    },
  });
  return toWebhookEndpoint(row);
}

export async function deleteWebhookEndpoint(
  db: Queryable,
  merchantId: string,
  endpointId: string,
  change: EndpointChange,
): Promise<{ endpointId: string; deleted: true }> {
  if (!(await q.removeWebhookEndpoint(db, merchantId, endpointId, change.at))) throw new NotFoundError('webhook endpoint');
  await recordAudit(db, { merchantId, actor: change.actor, action: 'webhook_endpoint.deleted', at: change.at, details: { endpointId } });
  return { endpointId, deleted: true };
}
