import { and, eq, type SQL } from 'drizzle-orm';
import { transactions } from '../../db/schema';
import type { Principal } from '../../http/authenticate';

/**
 * The rows a caller may see: a merchant key all of its merchant's, a branch key its branch's, a device its own.
 * Every transaction query ANDs this in, so another merchant's or branch's transaction is simply not found (404).
 */
export function transactionScope(principal: Principal): SQL {
  const merchant = eq(transactions.merchantId, principal.merchantId);
  switch (principal.kind) {
    case 'merchant_key':
      return merchant;
    case 'branch_key':
      return and(merchant, eq(transactions.branchId, requireId(principal.branchId)))!;
    case 'device':
      return and(merchant, eq(transactions.deviceId, requireId(principal.deviceId)))!;
    case 'client':
      throw new Error('client IDs never read transactions through a merchant endpoint');
  }
}

function requireId(id: string | null): string {
  if (!id) throw new Error('credential row without the id its kind requires');
  return id;
}
