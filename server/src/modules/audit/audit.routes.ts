import { ENDPOINT } from '@svc/protocol';
import type { Database } from '../../db/client';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { auditLogPage } from './audit-log';

/** `GET /merchant/audit-log`: the merchant's audit log, newest first, a page at a time. */
export function auditRoutes(deps: { readDb: Database }): EndpointRoute[] {
  return [
    route(ENDPOINT.listAuditLog, async ({ query, res, principal }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await auditLogPage(deps.readDb, principal().merchantId, query));
    }),
  ];
}
