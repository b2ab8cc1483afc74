import { ENDPOINT } from '@svc/protocol';
import type { MerchantOperationId } from './wire';

export interface MerchantRoute {
  method: 'GET' | 'POST' | 'PUT';
  /** The path template, `{name}` slots for the path parameters. */
  path: string;
  /** Takes query parameters (a GET that lists or filters). */
  hasQuery: boolean;
  /** Takes a JSON body. */
  hasBody: boolean;
  /** Takes an Idempotency-Key (every mutating POST). */
  idempotent: boolean;
}

/** A merchant's or a branch's API key; the merchant's key alone. */
const MERCHANT_CALLERS = new Set(['merchant', 'merchant_key']);

/**
 * The merchant's endpoints, from protocol's endpoint table (the one place they are written): every endpoint a
 * merchant's key may call whose answer is JSON. The build evaluates this module and bundles the result as plain data,
 * so the package carries no schema library.
 */
export const MERCHANT_ROUTES = Object.fromEntries(
  Object.values(ENDPOINT)
    .filter((e) => (e.auth as readonly string[]).some((who) => MERCHANT_CALLERS.has(who)) && !('contentType' in e.response))
    .map((e) => [
      e.operationId,
      {
        method: e.method === 'get' ? 'GET' : e.method === 'put' ? 'PUT' : 'POST',
        path: e.path,
        hasQuery: 'query' in e,
        hasBody: 'request' in e,
        idempotent: e.idempotent,
      },
    ]),
) as Record<MerchantOperationId, MerchantRoute>;
