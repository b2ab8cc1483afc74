import type { PaymentDeclineCode } from '../processor';

/**
 * Adyen's refusal reasons (`refusalReasonCode` of a `Refused` payment) that have a service code of their own; every
 * other refusal is `card_declined`. The processor's own code is kept beside the service's (`processorCode`).
 * docs/errors lists this table (`/docs/errors`).
 */
export const ADYEN_DECLINES: readonly { refusalReasonCode: string; refusalReason: string; code: PaymentDeclineCode }[] = [
  { refusalReasonCode: '6', refusalReason: 'Expired Card', code: 'expired_card' },
  { refusalReasonCode: '11', refusalReason: '3D Not Authenticated', code: 'authentication_failed' },
  { refusalReasonCode: '12', refusalReason: 'Not enough balance', code: 'insufficient_funds' },
  { refusalReasonCode: '24', refusalReason: 'CVC Declined', code: 'incorrect_cvc' },
  { refusalReasonCode: '28', refusalReason: 'Withdrawal amount exceeded', code: 'insufficient_funds' },
  { refusalReasonCode: '38', refusalReason: 'Authentication required', code: 'authentication_failed' },
  { refusalReasonCode: '39', refusalReason: 'RReq not received from DS', code: 'authentication_failed' },
];

/** The service's decline code for an Adyen refusal reason code (`card_declined` for any without one of its own). */
export function adyenDeclineCode(refusalReasonCode: string | undefined): PaymentDeclineCode {
  return ADYEN_DECLINES.find((d) => d.refusalReasonCode === refusalReasonCode)?.code ?? 'card_declined';
}
