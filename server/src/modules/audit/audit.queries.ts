import type { AuditAction, AuditEntry } from '@svc/protocol';
import { and, desc, eq, lt } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client';
import { apiCredentials, auditLog } from '../../db/schema';

/** Who made a change: a credential of the merchant (through the API), or the operator (through `pnpm svc`). */
export type AuditActorRef = { kind: 'operator' } | { kind: 'merchant_key' | 'branch_key'; credentialId: string };

export interface AuditRecord {
  merchantId: string;
  actor: AuditActorRef;
  action: AuditAction;
  /** The credential the change concerns, if any. */
  targetCredentialId?: string;
  details?: AuditEntry['details'];
  at: Date;
}

/** Writes one entry, in the caller's transaction (the change and its entry commit together). Never pass a secret. */
export async function insertAuditEntry(db: Queryable, record: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({
    merchantId: record.merchantId,
    at: record.at,
    actorKind: record.actor.kind,
    actorCredentialId: record.actor.kind === 'operator' ? null : record.actor.credentialId,
    action: record.action,
    targetCredentialId: record.targetCredentialId ?? null,
    details: record.details ?? {},
  });
}

const actorCredential = alias(apiCredentials, 'actor_credential');
const targetCredential = alias(apiCredentials, 'target_credential');

/** One page of a merchant's entries, newest first, after the entry `startingAfter` (an id) when given. */
export async function listAuditEntries(db: Queryable, merchantId: string, page: { limit: number; startingAfter?: number }) {
  return db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      actorKind: auditLog.actorKind,
      actorCredentialId: auditLog.actorCredentialId,
      actorHint: actorCredential.hint,
      action: auditLog.action,
      targetCredentialId: auditLog.targetCredentialId,
      targetKind: targetCredential.kind,
      targetHint: targetCredential.hint,
      details: auditLog.details,
    })
    .from(auditLog)
    .leftJoin(actorCredential, eq(actorCredential.id, auditLog.actorCredentialId))
    .leftJoin(targetCredential, eq(targetCredential.id, auditLog.targetCredentialId))
    .where(and(eq(auditLog.merchantId, merchantId), page.startingAfter === undefined ? undefined : lt(auditLog.id, page.startingAfter)))
    .orderBy(desc(auditLog.id))
    .limit(page.limit);
}
