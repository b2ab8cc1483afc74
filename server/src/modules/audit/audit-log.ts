import { AuditEntrySchema, type AuditEntry, type AuditLogPage } from '@svc/protocol';
import type { Queryable } from '../../db/client';
import { listAuditEntries } from './audit.queries';

/** A page of the audit log as the API and the CLI show it: newest first, `limit` entries, and the cursor to the next. */
export async function auditLogPage(db: Queryable, merchantId: string, page: { limit: number; startingAfter?: string }): Promise<AuditLogPage> {
  const after = page.startingAfter === undefined ? undefined : Number(page.startingAfter);
  // One more than asked tells whether another page follows.
  const rows = await listAuditEntries(db, merchantId, { limit: page.limit + 1, ...(after === undefined ? {} : { startingAfter: after }) });
  const shown = rows.slice(0, page.limit);
  const hasMore = rows.length > page.limit;
  return {
    data: shown.map((row): AuditEntry => ({
      id: String(row.id),
      at: row.at.toISOString(),
      actor: {
        kind: row.actorKind as AuditEntry['actor']['kind'],
        credentialId: row.actorCredentialId,
        hint: row.actorHint,
      },
      action: row.action as AuditEntry['action'],
      target:
        row.targetCredentialId && row.targetKind && row.targetHint
          ? { credentialId: row.targetCredentialId, kind: row.targetKind, hint: row.targetHint }
          : null,
      details: AuditEntrySchema.shape.details.parse(row.details),
    })),
    hasMore,
    nextCursor: hasMore && shown.length > 0 ? String(shown[shown.length - 1]!.id) : null,
  };
}
