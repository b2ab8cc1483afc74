import { and, eq, type SQL } from 'drizzle-orm';
import { columnParam, type ParamSlots } from './reusable-query';
import { transactions } from './schema';
import type { CredentialKind } from './schema';
import type { Principal } from '../auth/principal';

/** An id in a scope condition: the value itself, or the slot of a reusable statement. */
type Slot = string | SQL;

/**
 * The rows a caller may see: a merchant key all of its merchant's, a branch key its branch's, a device its own.
 * Every transaction query ANDs this in, so another merchant's or branch's transaction is simply not found (404).
 */
export function transactionScope(principal: Principal): SQL {
  return scopeOf(principal.kind, principal.merchantId, principal.branchId, principal.deviceId);
}

/** The ids a scope names, as parameters of a reusable statement: a group its values fill from the principal itself. */
export const SCOPE_PARAMS = {
  merchantId: columnParam(transactions.merchantId),
  branchId: columnParam(transactions.branchId),
  deviceId: columnParam(transactions.deviceId),
};

/** The same condition on the slots of `SCOPE_PARAMS`, for a reusable statement (one per credential kind). */
export function scopeCondition(kind: CredentialKind, scope: ParamSlots<{ scope: typeof SCOPE_PARAMS }>['scope']): SQL {
  return scopeOf(kind, scope.merchantId, scope.branchId, scope.deviceId);
}

function scopeOf(kind: CredentialKind, merchantId: Slot, branchId: Slot | null, deviceId: Slot | null): SQL {
  const merchant = eq(transactions.merchantId, merchantId);
  switch (kind) {
    case 'merchant_key':
      return merchant;
    case 'branch_key':
      return and(merchant, eq(transactions.branchId, requireId(branchId)))!;
    case 'device':
      return and(merchant, eq(transactions.deviceId, requireId(deviceId)))!;
    case 'client':
      throw new Error('client IDs never read transactions through a merchant endpoint');
  }
}

function requireId(id: Slot | null): Slot {
  if (!id) throw new Error('credential row without the id its kind requires');
  return id;
}
