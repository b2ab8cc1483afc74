import * as paths from '../endpoint-paths';
import { AuditLogPageSchema, AuditLogQuerySchema } from '../merchant-admin';
import type { EndpointDescription } from './description';

/** The merchant's audit log. */
export const AUDIT_ENDPOINTS = {
  listAuditLog: {
    operationId: 'listAuditLog',
    method: 'get',
    path: paths.listAuditLogPath,
    tag: 'Merchant',
    summary: "The merchant's audit log",
    description:
      'Every change to the credentials and settings, newest first: who (the credential, by id and hint, or the operator), what (the ' +
      'action and its target) and when; never a key or a secret. Query: `limit` (1–100, default 20) and `startingAfter` (the ' +
      '`nextCursor` of the page before). A bad parameter is a 400 `validation_failed` naming it.',
    auth: ['merchant_key'],
    query: AuditLogQuerySchema,
    response: { status: 200, description: 'One page of entries', schema: AuditLogPageSchema },
    errors: [],
    idempotent: false,
  },
} as const satisfies Record<string, EndpointDescription>;
