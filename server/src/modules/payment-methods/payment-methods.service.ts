import { PAYMENT_METHODS, type PaymentMethodName, type PaymentMethods } from '@svc/protocol';
import type { Queryable } from '../../db/client';
import { NotFoundError } from '../../errors';
import { recordAudit, type AuditActorRef } from '../audit';
import * as q from './payment-methods.queries';

/** Stored names in PAYMENT_METHODS' order, anything else dropped. */
function known(stored: readonly string[]): PaymentMethodName[] {
  return PAYMENT_METHODS.filter((method) => stored.includes(method));
}

/** The payment methods the merchant's widgets offer (every method unless the merchant chose otherwise). */
export async function offeredPaymentMethods(db: Queryable, merchantId: string): Promise<PaymentMethodName[]> {
  const stored = await q.findPaymentMethods(db, merchantId);
  if (stored === null) throw new NotFoundError('merchant');
  return known(stored);
}

/** Sets what the merchant's widgets offer from now on (a subset of PAYMENT_METHODS, at least one), audit-logged when it changes. */
export async function setPaymentMethods(
  tx: Queryable,
  change: { merchantId: string; actor: AuditActorRef; now: Date },
  paymentMethods: readonly PaymentMethodName[],
): Promise<PaymentMethods> {
  const stored = await q.findPaymentMethods(tx, change.merchantId, true);
  if (stored === null) throw new NotFoundError('merchant');
  const previous = known(stored);
  const next = known(paymentMethods);
  if (next.length === 0) throw new Error('a merchant offers at least one payment method');
  if (next.join() !== previous.join()) {
    await q.updatePaymentMethods(tx, change.merchantId, next);
    await recordAudit(tx, {
      merchantId: change.merchantId,
      actor: change.actor,
      action: 'payment_methods.updated',
      at: change.now,
      details: { paymentMethods: next, previousPaymentMethods: previous },
    });
  }
  return { paymentMethods: next };
}
