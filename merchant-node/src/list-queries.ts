/**
 * The queries of the listings as the client takes them: numbers, dates and lists in their own types (`status: [13,
 * 14]`, `createdFrom: new Date(…)`), written into the query string as the service reads them (query-string.ts). In the
 * source they are protocol's own; the build replaces this module's declarations with standalone ones printed from
 * them (scripts/standalone-types.mjs), so the published types need no other package.
 */
export type { AuditLogParams, ListEventsParams, ListTransactionsParams } from '@svc/protocol';
