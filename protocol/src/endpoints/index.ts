import { AUDIT_ENDPOINTS } from './audit';
import { AUTHENTICATION_ENDPOINTS } from './authentication';
import { AUTHORIZATION_ENDPOINTS } from './authorizations';
import { CALLBACK_ENDPOINTS } from './callbacks';
import { COMMIT_ENDPOINTS } from './commits';
import { CREDENTIAL_ENDPOINTS } from './credentials';
import { EVENT_ENDPOINTS } from './events';
import type { EndpointDescription } from './description';
import { HEALTH_ENDPOINTS } from './health';
import { HOSTED_PAGE_ENDPOINTS } from './hosted-page';
import { allErrors } from './implied-errors';
import { MERCHANT_SETTINGS_ENDPOINTS } from './merchant-settings';
import { PAYMENT_METHOD_ENDPOINTS } from './payment-methods';
import { PROCESSOR_ACCOUNT_ENDPOINTS } from './processor-account';
import { RECEIPT_ENDPOINTS } from './receipts';
import { REFUND_ENDPOINTS } from './refunds';
import { SANDBOX_ENDPOINTS } from './sandbox';
import { SDK_SESSION_ENDPOINTS } from './sdk-sessions';
import { STICKER_ENDPOINTS } from './stickers';
import { TRANSACTION_ENDPOINTS } from './transactions';
import { WEBHOOK_ENDPOINT_ENDPOINTS } from './webhook-endpoints';

export type { EndpointAuth, EndpointDescription, PageAnswer } from './description';

type Domain = Readonly<Record<string, EndpointDescription>>;
/** The domains' tables as one: every key of each, with its own entry's type. */
type Composed<Domains extends readonly Domain[]> = Domains extends readonly [infer First, ...infer Rest extends readonly Domain[]]
  ? First & Composed<Rest>
  : unknown;

/**
 * The domains' tables composed into one, in the order given (the order of the OpenAPI document and /docs). An
 * operation is declared by one domain only, under its own operationId: a second declaration would silently replace
 * the first, so it throws instead.
 */
export function composeEndpointTable<const Domains extends readonly Domain[]>(...domains: Domains): Composed<Domains> {
  const table: Record<string, EndpointDescription> = {};
  for (const domain of domains) {
    for (const [key, endpoint] of Object.entries(domain)) {
      if (key !== endpoint.operationId) throw new Error(`the endpoint table's entry ${key} declares the operationId ${endpoint.operationId}`);
      if (key in table) throw new Error(`the endpoint ${key} is declared by two domains`);
      table[key] = endpoint;
    }
  }
  return table as Composed<Domains>;
}

/**
 * The endpoint table, keyed by operation, one domain's table per file of this folder: the server mounts each entry
 * (method, path, who may call, body schema, idempotency) with a handler of its own (server/src/http/endpoint-router.ts),
 * so a path is written here and nowhere else. An entry keeps its own request schema's type, so a handler's body is
 * typed from the table.
 */
export const ENDPOINT = composeEndpointTable(
  TRANSACTION_ENDPOINTS,
  AUTHORIZATION_ENDPOINTS,
  REFUND_ENDPOINTS,
  HOSTED_PAGE_ENDPOINTS,
  STICKER_ENDPOINTS,
  RECEIPT_ENDPOINTS,
  COMMIT_ENDPOINTS,
  CALLBACK_ENDPOINTS,
  WEBHOOK_ENDPOINT_ENDPOINTS,
  EVENT_ENDPOINTS,
  MERCHANT_SETTINGS_ENDPOINTS,
  SDK_SESSION_ENDPOINTS,
  AUTHENTICATION_ENDPOINTS,
  SANDBOX_ENDPOINTS,
  CREDENTIAL_ENDPOINTS,
  PAYMENT_METHOD_ENDPOINTS,
  PROCESSOR_ACCOUNT_ENDPOINTS,
  AUDIT_ENDPOINTS,
  HEALTH_ENDPOINTS,
);
export type OperationId = keyof typeof ENDPOINT;

/** Every endpoint, in the table's order, with every error it may answer (allErrors). */
export const ENDPOINTS: EndpointDescription[] = Object.values<EndpointDescription>(ENDPOINT).map((endpoint) => ({ ...endpoint, errors: allErrors(endpoint) }));
