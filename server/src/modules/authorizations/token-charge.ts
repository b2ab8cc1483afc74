import { withoutAuthentication } from '../../processor/payment-result';
import { Status, type Currency, type PayResponse } from '@svc/protocol';
import type { Principal } from '../../auth/principal';
import type { Tx } from '../../db/client';
import { ValidationError } from '../../errors';
import { newConfirmationNumber, newLinkId, newPaymentId, newTransactionNumber } from '../../ids';
import type { AnswerAfterCommit, MutationContext } from '../../mutations/mutation';
import type { Outcome, Success } from '../../mutations/stored-answer';
import type { ProcessorResult } from '../../processor/processor';
import { processorError, requireCapability } from '../../processor/processor-errors';
import { processorOf } from '../../processor/processor-registry';
import type { ServiceDeps } from '../../service-deps';
import { confirmationFor, insertPayment, toPayment } from '../payments';
import { payAfterCommit, type PaymentOperation, type Recording } from '../processor-requests';
import { insertTransaction, recordChange } from '../transactions';

/** A new sale on a tokenized method: the processor charges it outside any database transaction, and the sale is created with its answer. */
export async function chargeTokenizedMethod(
  tx: Tx,
  deps: ServiceDeps,
  principal: Principal,
  token: TokenizedMethod,
  input: { amount: number; currency?: Currency },
  context: MutationContext,
): Promise<AnswerAfterCommit> {
  const currency = input.currency;
  if (currency === undefined) {
    throw new ValidationError([{ path: 'currency', message: 'is required when charging a tokenized payment method' }]);
  }
  requireCapability(await processorOf(deps, principal.merchantId, tx), 'savedCards');
  const charge = { principal, token, amountCents: input.amount, currency };
  const asked = { transactionId: null, merchantId: principal.merchantId, processorReference: token.processorReference, amountCents: input.amount, currency };
  return payAfterCommit(tx, deps, context, tokenChargeOperation, charge, asked);
}

/** A tokenized method as a token charge uses it. */
export type TokenizedMethod = { processorReference: string; paymentMethod: string; lastFourDigits: string | null; processor: string; branchId: string | null };

/** A token charge as its request holds it in memory: who asked, the method, and what. */
interface TokenCharge {
  principal: Principal;
  token: TokenizedMethod;
  amountCents: number;
  currency: Currency;
}

/** A sale on a tokenized method, which creates its transaction with the outcome (approved: a sale with its payment; else nothing). */
export const tokenChargeOperation: PaymentOperation<TokenCharge> = {
  kind: 'charge_token',
  call: (processor, request, charge) => processor.chargeToken(charge.token.processorReference, charge.amountCents, charge.currency, request.requestKey),
  record: (tx, _request, result, charge, recording) => recordTokenCharge(tx, charge, withoutAuthentication(result), recording),
};

async function recordTokenCharge(tx: Tx, charge: TokenCharge, result: ProcessorResult, { now, env }: Recording): Promise<Outcome> {
  const { principal, token, amountCents, currency } = charge;
  if (result.outcome !== 'approved') return processorError(result);
  const confirmationNumber = newConfirmationNumber();
  const sale = await insertTransaction(tx, {
    transactionNumber: newTransactionNumber(),
    merchantId: principal.merchantId,
    branchId: principal.branchId ?? token.branchId,
    methodType: 'sale',
    status: Status.Approved,
    currency,
    amountCents,
    linkId: newLinkId(),
    paymentType: token.paymentMethod,
    processor: token.processor,
    // The payment the processor made on the saved method (the sandbox: the method itself; Stripe: its own
    // PaymentIntent): a refund gives the money back through it.
    processorReference: result.reference,
    confirmation: confirmationFor({
      paymentType: token.paymentMethod,
      processor: token.processor,
      lastFourDigits: token.lastFourDigits,
      authNumber: result.authNumber,
      serviceReferenceId: result.paymentId,
      confirmationNumber,
      at: now,
    }),
    sequence: 1,
    createdAt: now,
    updatedAt: now,
  });
  const payment = await insertPayment(tx, {
    paymentId: newPaymentId(),
    transactionId: sale.id,
    merchantId: sale.merchantId,
    kind: 'sale',
    amountCents,
    status: 'succeeded',
    confirmationNumber,
    createdAt: now,
  });
  const { transaction } = await recordChange(tx, sale.id, { at: now, baseUrl: env.PUBLIC_BASE_URL, type: 'transaction.created' });
  return { body: { payment: toPayment(payment), transaction } satisfies PayResponse } satisfies Success;
}
