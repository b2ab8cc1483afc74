import { and, eq, like, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { processorAccounts } from '../../db/schema';

export type ProcessorAccountRow = typeof processorAccounts.$inferSelect;

export async function findProcessorAccount(db: Queryable, merchantId: string): Promise<ProcessorAccountRow | null> {
  const [row] = await db.select().from(processorAccounts).where(eq(processorAccounts.merchantId, merchantId));
  return row ?? null;
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
