import { and, eq, like, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { columnParam, reusableQuery } from '../../db/reusable-query';
import { processorAccounts } from '../../db/schema';

export type ProcessorAccountRow = typeof processorAccounts.$inferSelect;

export async function findProcessorAccount(db: Queryable, merchantId: string): Promise<ProcessorAccountRow | null> {
  const [row] = await db.select().from(processorAccounts).where(eq(processorAccounts.merchantId, merchantId));
  return row ?? null;
}

const accountAsSeen = reusableQuery('processor_account_as_seen', { merchantId: columnParam(processorAccounts.merchantId) }, (db, slots) =>
  db
    .select({
      account: processorAccounts,
      // The trigger on processor_accounts turns this setting on for the rest of a transaction that changes an account
      // (migration 0025): what that transaction reads of the table is not committed yet.
      changedHere: sql<boolean>`coalesce(current_setting('svc.processor_accounts_changed', true) = 'on', false)`,
    })
    // One row whether or not the merchant has an account, so that "none" comes with the flag too.
    .from(sql`(select 1) as "one"`)
    .leftJoin(processorAccounts, eq(processorAccounts.merchantId, slots.merchantId)),
);

/**
 * The merchant's account (null: none) as `db` sees it, and whether `db` is a transaction that changed an account
 * itself: then what it sees may never be committed, and must not be kept beyond the transaction.
 */
export async function findProcessorAccountAsSeen(db: Queryable, merchantId: string): Promise<{ account: ProcessorAccountRow | null; changedHere: boolean }> {
  const [row] = await accountAsSeen(db, { merchantId });
  return { account: row?.account ?? null, changedHere: row?.changedHere ?? false };
}

/** The merchant's account, in place of the one it had; answers the kind it replaced (null: none). */
export async function saveProcessorAccount(db: Queryable, row: ProcessorAccountRow): Promise<void> {
  await db
    .insert(processorAccounts)
    .values(row)
    .onConflictDoUpdate({
      target: processorAccounts.merchantId,
      set: { kind: sql`excluded.kind`, hint: sql`excluded.hint`, sealedCredentials: sql`excluded.sealed_credentials`, updatedAt: sql`excluded.updated_at` },
    });
}

/**
 * At most `limit` stored accounts of `kind` (by merchant id), those whose hint starts with `hintPrefix` when given:
 * the candidates a processor's webhook is verified with.
 */
export async function findProcessorAccountsOfKind(
  db: Queryable,
  kind: ProcessorAccountRow['kind'],
  limit: number,
  hintPrefix?: string,
): Promise<ProcessorAccountRow[]> {
  const escaped = hintPrefix?.replace(/[\\%_]/g, (c) => `\\${c}`);
  return db
    .select()
    .from(processorAccounts)
    .where(and(eq(processorAccounts.kind, kind), escaped === undefined ? undefined : like(processorAccounts.hint, `${escaped}%`)))
    .orderBy(processorAccounts.merchantId)
    .limit(limit);
}
