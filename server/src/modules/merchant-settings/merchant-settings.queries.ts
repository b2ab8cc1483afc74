import type { CallbackMethod, MerchantSettings } from '@svc/protocol';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { columnParam, param, reusableStatement } from '../../db/reusable-query';
import { branches, merchants } from '../../db/schema';

/** What a settings change names: a field left undefined stays as it is; a null URL removes the default. */
export interface CallbackDefaultsChange {
  callbackUrl?: string | null;
  callbackMethod?: CallbackMethod;
}

/**
 * Sets the merchant's default callback (or, with `branchId`, that branch's). False when the merchant has no such
 * branch: nothing changed.
 */
export async function setCallbackDefaults(db: Queryable, merchantId: string, branchId: string | null, change: CallbackDefaultsChange): Promise<boolean> {
  const values = {
    ...(change.callbackUrl !== undefined ? { callbackUrl: change.callbackUrl } : {}),
    ...(change.callbackMethod !== undefined ? { callbackMethod: change.callbackMethod } : {}),
  };
  if (Object.keys(values).length === 0) throw new Error('setCallbackDefaults needs a setting to change');
  const changed =
    branchId === null
      ? await db.update(merchants).set(values).where(eq(merchants.id, merchantId)).returning({ id: merchants.id })
      : await db
          .update(branches)
          .set(values)
          .where(and(eq(branches.id, branchId), eq(branches.merchantId, merchantId)))
          .returning({ id: branches.id });
  return changed.length > 0;
}

/** The merchant's settings with each branch's own, oldest branch first; null for no such merchant. */
export async function readMerchantSettings(db: Queryable, merchantId: string): Promise<MerchantSettings | null> {
  const [merchant] = await db
    .select({ callbackURL: merchants.callbackUrl, callbackMethod: merchants.callbackMethod })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  if (!merchant) return null;
  const ofBranches = await db
    .select({ branchId: branches.id, name: branches.name, callbackURL: branches.callbackUrl, callbackMethod: branches.callbackMethod })
    .from(branches)
    .where(eq(branches.merchantId, merchantId))
    .orderBy(asc(branches.createdAt), asc(branches.id));
  return { ...merchant, branches: ofBranches };
}

const defaultsOf = reusableStatement(
  { merchantId: columnParam(merchants.id), branchId: param.nullable(columnParam(branches.id)) },
  (_db, slots) => sql<{ url: string | null; method: CallbackMethod; owner: 'branch' | 'merchant' }>`select coalesce(b.callback_url, m.callback_url) as url,
      case when b.callback_url is not null then b.callback_method else m.callback_method end as method,
      case when b.callback_url is not null then 'branch' else 'merchant' end as owner
    from ${merchants} m left join ${branches} b on b.id = ${slots.branchId} and b.merchant_id = m.id
    where m.id = ${slots.merchantId}`,
);

/**
 * The callback a transaction of this merchant (and branch, if any) gets when its init names none: the branch's
 * default if it has one, else the merchant's; null when neither has one. One statement.
 */
export async function callbackDefaultsFor(
  db: Queryable,
  merchantId: string,
  branchId: string | null,
): Promise<{ url: string; method: CallbackMethod; owner: 'branch' | 'merchant' } | null> {
  const [row] = await defaultsOf(db, { merchantId, branchId });
  return row?.url ? { url: row.url, method: row.method, owner: row.owner } : null;
}
