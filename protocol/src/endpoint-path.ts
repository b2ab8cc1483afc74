import { fillPath } from './endpoint-paths';
import { ENDPOINT } from './endpoints';

/**
 * The method and path of an endpoint, from the endpoint table (the one place paths are written): `{name}` slots are
 * filled from `params`, URI-encoded. Unknown operations and missing parameters throw, so a client built on this
 * cannot call a path the table does not list.
 */
export function endpointRequest(operationId: string, params: Record<string, string> = {}): { method: 'GET' | 'POST' | 'PUT'; path: string } {
  const endpoint = (ENDPOINT as Record<string, { method: 'get' | 'post' | 'put'; path: string } | undefined>)[operationId];
  if (!endpoint) throw new Error(`no endpoint ${operationId} in the endpoint table`);
  return { method: endpoint.method === 'get' ? 'GET' : endpoint.method === 'put' ? 'PUT' : 'POST', path: fillPath(endpoint.path, params) };
}
