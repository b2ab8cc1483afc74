import type { WsScope } from '@svc/protocol';
import type { Principal } from '../auth/principal';

/**
 * Who is on a socket, as resolved at the upgrade. A credential (merchant key, branch key, device ID) sees what
 * its HTTP calls see; a browser holding a payment link or an SDK session sees exactly one transaction.
 */
export type Audience =
  | { kind: 'credential'; principal: Principal }
  | { kind: 'single_transaction'; via: 'link' | 'session'; merchantId: string; transactionId: string; transactionNumber: string };

/** What a scope subscription matches: every transaction of a merchant (or of one branch), or of one device. */
export type ScopeFilter = { scope: 'merchant'; merchantId: string; branchId: string | null } | { scope: 'device'; deviceId: string };

/** The filter of a scope subscription, or null when the audience may not hold that scope. */
export function scopeFilterFor(audience: Audience, scope: WsScope): ScopeFilter | null {
  if (audience.kind !== 'credential') return null;
  const { principal } = audience;
  if (scope === 'merchant') {
    if (principal.kind === 'merchant_key') return { scope, merchantId: principal.merchantId, branchId: null };
    if (principal.kind === 'branch_key' && principal.branchId) return { scope, merchantId: principal.merchantId, branchId: principal.branchId };
    return null;
  }
  if (principal.kind === 'device' && principal.deviceId) return { scope, deviceId: principal.deviceId };
  return null;
}

/** Which form of the transaction object an audience receives: the whole object, or protocol's browser view of it (not the server's `TransactionView`, the rows it is built from). */
export type ObjectForm = 'full' | 'browser';

/**
 * Browsers (a payment link's page, an SDK session's widget) get the browser view (`toBrowserTransaction`): no
 * commitLink, which would let the consumer commit their own payment at the amount they chose; no payment token; no
 * POS data. Credentials get the whole object, as their status query does. That includes devices: a device is the
 * merchant's own terminal, which sends the POS data itself and may commit its transactions, so it keeps them; it
 * sees only transactions created with its device ID, never an SDK payment, so it never gets a widget payment's
 * commitLink.
 */
export function viewFor(audience: Audience): ObjectForm {
  return audience.kind === 'credential' ? 'full' : 'browser';
}

/** For logs: what kind of client this is, never its credential. */
export function describeAudience(audience: Audience): Record<string, string> {
  if (audience.kind === 'credential')
    return { audience: audience.principal.kind, merchantId: audience.principal.merchantId, credentialId: audience.principal.credentialId };
  return { audience: audience.via, merchantId: audience.merchantId, transactionNumber: audience.transactionNumber };
}
