import type { CreateCredentialRequestSchema, Credential, CreatedCredential, RolledWebhookSecret } from '@svc/protocol';
import type { z } from 'zod';
import type { Queryable } from '../../db/client';
import { ApiError, NotFoundError, ValidationError } from '../../errors';
import { recordAudit, type AuditActorRef } from '../audit';
import { credentialHint, generateCredential, generateHmacSecret } from '../merchants';
import * as q from './credentials.queries';
import { hashCredential } from '../../auth/credential-hash';

/**
 * Managing a merchant's credentials, for the merchant-key endpoints and the operator's CLI alike. Each change and its
 * audit entry are written in the caller's transaction; a change to a credential row is announced to every instance
 * by the trigger on api_credentials when it commits, so every credential cache forgets it at once.
 */
export interface Change {
  merchantId: string;
  actor: AuditActorRef;
  now: Date;
  /**
   * Told the key hash (hex) of a credential this change revokes or alters: the API forgets it in its own instance's
   * credential cache once the change commits, before it answers (the other instances hear the trigger).
   */
  changed?: (secretHashHex: string) => void;
}

/** A credential as listings show it: the hint, never the key; allowed origins for client IDs only. */
export function credentialView(row: q.CredentialRecord): Credential {
  return {
    credentialId: row.id,
    kind: row.kind,
    hint: row.hint,
    branchId: row.branchId,
    deviceId: row.deviceId,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    ...(row.kind === 'client' ? { allowedOrigins: row.allowedOrigins } : {}),
  };
}

export async function listCredentials(db: Queryable, merchantId: string): Promise<Credential[]> {
  return (await q.listMerchantCredentials(db, merchantId)).map(credentialView);
}

/** The credential making the call, as listings show it (it authenticated, so it is the merchant's and not revoked). */
export async function currentCredential(db: Queryable, merchantId: string, credentialId: string): Promise<Credential> {
  const row = await q.findMerchantCredential(db, merchantId, credentialId);
  if (!row) throw new NotFoundError('credential');
  return credentialView(row);
}

export async function createCredential(
  tx: Queryable,
  change: Change,
  input: Pick<z.output<typeof CreateCredentialRequestSchema>, 'kind' | 'branchId' | 'allowedOrigins'>,
): Promise<CreatedCredential> {
  const branchId = input.branchId ?? null;
  if (branchId !== null && !(await q.branchOfMerchant(tx, change.merchantId, branchId))) {
    throw new ValidationError([{ path: 'branchId', message: 'is not a branch of this merchant' }]);
  }
  const value = generateCredential(input.kind);
  const row = await q.insertMerchantCredential(tx, {
    merchantId: change.merchantId,
    kind: input.kind,
    branchId,
    secretHash: hashCredential(value),
    hint: credentialHint(value),
    allowedOrigins: input.kind === 'client' ? (input.allowedOrigins ?? []) : [],
    createdAt: change.now,
  });
  await recordAudit(tx, {
    ...auditOf(change, 'credential.created', row.id),
    details: { branchId, ...(row.kind === 'client' ? { allowedOrigins: row.allowedOrigins } : {}) },
  });
  return { credential: credentialView(row), value };
}

/**
 * Revokes a credential: every instance refuses it from the commit on. The credential making the call cannot revoke
 * itself (the caller would lock itself out mid-call, and a merchant could lose its last key by a slip).
 */
export async function revokeCredential(tx: Queryable, change: Change, credentialId: string): Promise<Credential> {
  if (change.actor.kind !== 'operator' && change.actor.credentialId === credentialId) {
    throw new ApiError(
      'own_credential_not_revocable',
      'A key cannot revoke itself: create another merchant key, switch to it, and revoke this one with it (or with `pnpm svc credentials revoke`).',
    );
  }
  const current = await q.lockMerchantCredential(tx, change.merchantId, credentialId);
  if (!current) throw new NotFoundError('credential');
  if (current.revokedAt) return credentialView(current);
  const revoked = await q.revokeCredential(tx, credentialId, change.now);
  change.changed?.(current.secretHash.toString('hex'));
  await recordAudit(tx, auditOf(change, 'credential.revoked', credentialId));
  return credentialView(revoked ?? current);
}

/** Adds (or removes) one allowed origin of a client ID; an origin already there (or not there) changes nothing. */
export async function changeAllowedOrigin(tx: Queryable, change: Change, credentialId: string, origin: string, how: 'add' | 'remove'): Promise<Credential> {
  const current = await q.lockMerchantCredential(tx, change.merchantId, credentialId);
  if (!current) throw new NotFoundError('credential');
  if (current.kind !== 'client')
    throw new ApiError('not_a_client_id', `Only a client ID has allowed origins; this credential is a ${current.kind.replace('_', ' ')}.`);
  if (current.revokedAt) throw new ApiError('credential_revoked', 'This client ID is revoked; create a new one with the origins it needs.');
  const present = current.allowedOrigins.includes(origin);
  if (how === 'add' ? present : !present) return credentialView(current);
  const origins = how === 'add' ? [...current.allowedOrigins, origin] : current.allowedOrigins.filter((o) => o !== origin);
  const updated = await q.setAllowedOrigins(tx, credentialId, origins);
  change.changed?.(current.secretHash.toString('hex'));
  await recordAudit(tx, { ...auditOf(change, how === 'add' ? 'allowed_origin.added' : 'allowed_origin.removed', credentialId), details: { origin } });
  return credentialView(updated);
}

/**
 * A new HMAC secret; the one it replaces keeps signing beside it for `overlapSeconds` (0: not at all). A roll during
 * another's overlap ends that overlap: the secret from before the first roll stops signing.
 */
export async function rollWebhookSecret(tx: Queryable, change: Change, overlapSeconds: number): Promise<RolledWebhookSecret> {
  const secret = generateHmacSecret();
  const previousUntil = overlapSeconds > 0 ? new Date(change.now.getTime() + overlapSeconds * 1000) : null;
  if (!(await q.rollHmacSecret(tx, change.merchantId, secret, previousUntil))) throw new NotFoundError('merchant');
  const previousSecretValidUntil = previousUntil?.toISOString() ?? null;
  await recordAudit(tx, { ...auditOf(change, 'webhook_secret.rolled'), details: { overlapSeconds, previousSecretValidUntil } });
  return { hmacSecret: secret, previousSecretValidUntil };
}

function auditOf(change: Change, action: Parameters<typeof recordAudit>[1]['action'], targetCredentialId?: string) {
  return { merchantId: change.merchantId, actor: change.actor, action, at: change.now, ...(targetCredentialId ? { targetCredentialId } : {}) };
}
