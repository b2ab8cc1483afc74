import type { Approval } from '../../processor/processor';
import type { Payment, ThreeDSecure } from '@svc/protocol';
import type { PaymentRow } from './payments.queries';

export function toPayment(row: PaymentRow): Payment {
  return {
    paymentId: row.paymentId,
    amountCents: row.amountCents,
    status: row.status,
    date: row.createdAt.toISOString(),
    confirmationNumber: row.confirmationNumber,
  };
}

/** The spec's Confirmation object for an approval. */
export function confirmationFor(input: {
  paymentType: string;
  processor: string;
  lastFourDigits: string | null;
  authNumber: string;
  confirmationNumber: string;
  at: Date;
  paymentMethodName?: string;
  installments?: number;
  threeDSecure?: ThreeDSecure | null;
  /** The processor's id of the payment, where it gives one; else the confirmation number stands for it. */
  serviceReferenceId?: string | undefined;
}) {
  return {
    paymentType: input.paymentType,
    confirmationNumber: input.confirmationNumber,
    fullConfirmationCode: `${input.processor.toUpperCase()}-${input.authNumber}-${input.confirmationNumber}`,
    dateApproval: input.at.toISOString(),
    installments: input.installments ?? 1,
    paymentMethodName: input.paymentMethodName ?? input.paymentType,
    approvedBy: input.processor,
    providerId: input.processor,
    requestID: input.confirmationNumber,
    authNumber: input.authNumber,
    referenceNumber: input.confirmationNumber,
    acquirer: input.processor,
    voucher: null,
    lastFourDigits: input.lastFourDigits,
    serviceReferenceId: input.serviceReferenceId ?? input.confirmationNumber,
    threeDSecure: input.threeDSecure ?? null,
  };
}

/** The confirmation of a processor's approval of a method the consumer presented (a link payment, a widget payment). */
export function confirmationOfApproval(approval: Approval, paymentType: string, confirmationNumber: string, at: Date, installments = 1) {
  const { processor, lastFourDigits, authNumber, paymentMethodName, paymentId, threeDSecure } = approval;
  return confirmationFor({
    paymentType,
    processor,
    lastFourDigits,
    authNumber,
    confirmationNumber,
    at,
    paymentMethodName,
    serviceReferenceId: paymentId,
    installments,
    threeDSecure,
  });
}
