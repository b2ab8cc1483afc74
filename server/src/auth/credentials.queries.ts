import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { columnParam, reusableQuery } from '../db/reusable-query';
import { apiCredentials } from '../db/schema';

const credentialByHash = reusableQuery('credential_by_hash', { secretHash: columnParam(apiCredentials.secretHash) }, (db, slots) =>
  db
    .select({
      id: apiCredentials.id,
      kind: apiCredentials.kind,
      secretHash: apiCredentials.secretHash,
      merchantId: apiCredentials.merchantId,
      branchId: apiCredentials.branchId,
      deviceId: apiCredentials.deviceId,
      allowedOrigins: apiCredentials.allowedOrigins,
    })
    .from(apiCredentials)
    .where(and(eq(apiCredentials.secretHash, slots.secretHash), isNull(apiCredentials.revokedAt)))
    .limit(1),
);

/** A live credential as authentication sees it: its kind, its scope and its allowed origins. */
export type CredentialRow = NonNullable<Awaited<ReturnType<typeof findCredentialByHash>>>;

/** The live credential with this hash, with what the auth layer needs of its merchant (every authenticated request). */
export async function findCredentialByHash(db: Queryable, secretHash: Buffer) {
  const [row] = await credentialByHash(db, { secretHash });
  return row ?? null;
}
