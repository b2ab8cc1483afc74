import { ENDPOINTS, type EndpointDescription } from './endpoints';

/**
 * The method and path of an endpoint, from the endpoint table (the one place paths are written): `{name}` slots are
 * filled from `params`, URI-encoded. Unknown operations and missing parameters throw, so a client built on this
 * cannot call a path the table does not list.
 */
export function endpointRequest(operationId: string, params: Record<string, string> = {}): { method: 'GET' | 'POST'; path: string } {
  const endpoint: EndpointDescription | undefined = ENDPOINTS.find((e) => e.operationId === operationId);
  if (!endpoint) throw new Error(`no endpoint ${operationId} in the endpoint table`);
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_slot, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operationId} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  return { method: endpoint.method === 'get' ? 'GET' : 'POST', path };
}
