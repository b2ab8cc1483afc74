import type { CardInput, Currency, WalletMethod } from '@svc/protocol';

/** A payment method as the consumer presented it. Card data lives only in memory, for the processor call. */
export type PaymentMethodInput = { method: 'card'; card: CardInput } | { method: WalletMethod };

export interface Approval {
  outcome: 'approved';
  processor: string;
  /** Stands for the payment method at the processor; stored on tokens instead of card data. */
  reference: string;
  authNumber: string;
  supportsCloseAuth: boolean;
  paymentMethodName: string;
  lastFourDigits: string | null;
}

export interface Refusal {
  outcome: 'declined';
  processor: string;
  code: 'card_declined' | 'insufficient_funds';
}

export interface Failure {
  outcome: 'failed';
  processor: string;
  reason: string;
}

export type ProcessorResult = Approval | Refusal | Failure;

/**
 * The processor port. The sandbox processor implements it; a real acquirer would too. Amounts in cents.
 * `authorize` with 0 cents only verifies the method (an authorization whose amount comes later).
 */
export interface PaymentProcessor {
  sale(method: PaymentMethodInput, amountCents: number, currency: Currency): Promise<ProcessorResult>;
  authorize(method: PaymentMethodInput, amountCents: number, currency: Currency): Promise<ProcessorResult>;
  /** A new hold on a method already authorized once (re-authorization). */
  reauthorize(reference: string, amountCents: number, currency: Currency): Promise<ProcessorResult>;
  capture(reference: string, amountCents: number, currency: Currency): Promise<ProcessorResult>;
  /** A new sale on a tokenized method. */
  chargeToken(reference: string, amountCents: number, currency: Currency): Promise<ProcessorResult>;
  /** Gives back what a hold still holds (void, closeAuth, expiry). */
  release(reference: string, amountCents: number): Promise<void>;
}
