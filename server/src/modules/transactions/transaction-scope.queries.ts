import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { transactions } from '../../db/schema';
import type { CredentialKind } from '../../db/schema';
import type { Principal } from '../../auth/principal';

/** An id in a scope condition: the value itself, or the slot of a reusable query. */
type Slot = string | Placeholder;

/**
 * The rows a caller may see: a merchant key all of its merchant's, a branch key its branch's, a device its own.
 * Every transaction query ANDs this in, so another merchant's or branch's transaction is simply not found (404).
 */
export function transactionScope(principal: Principal): SQL {
  return scopeOf(principal.kind, principal.merchantId, principal.branchId, principal.deviceId);
}

/** The same condition with slots for the ids, for a reusable query (one per credential kind); fill them with `scopeSlotValues`. */
export function transactionScopeSlots(kind: CredentialKind): SQL {
  return scopeOf(kind, sql.placeholder('scopeMerchantId'), sql.placeholder('scopeBranchId'), sql.placeholder('scopeDeviceId'));
}

export function scopeSlotValues(principal: Principal): { scopeMerchantId: string; scopeBranchId: string | null; scopeDeviceId: string | null } {
  return { scopeMerchantId: principal.merchantId, scopeBranchId: principal.branchId, scopeDeviceId: principal.deviceId };
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
