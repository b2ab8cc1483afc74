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
 * The processor port: every call the service makes to an acquirer. The sandbox processor implements it (outcomes
 * follow the test cards); a real acquirer implements it too and is returned by `processorForMode` for production,
 * which refuses to start on the sandbox one. Amounts are integer cents in the given currency.
 *
 * - Results, not exceptions: an approval, a decline (`card_declined`, `insufficient_funds`) or a failure. A thrown
 *   error is an outage and rolls the whole change back; the services turn declines and failures into 402/502.
 * - `reference` stands for the payment method at the processor. It is stored on tokens (never card data) and
 *   handed back for later operations on the same method.
 * - `capture` and `release` move money already held, and are made outside any database lock: the service records
 *   its intent (processor_requests) first, calls, then records the outcome. They carry `requestKey`, the same on
 *   every attempt of one call (a retry after a crash or a timeout): an implementation sends it as its acquirer's
 *   idempotency key, so a repeated call answers as the first one did and moves no money twice.
 * - `authorize` with 0 cents only verifies the method (an authorization whose amount comes later).
 */
export interface PaymentProcessor {
  sale(method: PaymentMethodInput, amountCents: number, currency: Currency): Promise<ProcessorResult>;
  authorize(method: PaymentMethodInput, amountCents: number, currency: Currency): Promise<ProcessorResult>;
  /** A new hold on a method already authorized once (re-authorization). */
  reauthorize(reference: string, amountCents: number, currency: Currency): Promise<ProcessorResult>;
  capture(reference: string, amountCents: number, currency: Currency, requestKey: string): Promise<ProcessorResult>;
  /** A new sale on a tokenized method. */
  chargeToken(reference: string, amountCents: number, currency: Currency): Promise<ProcessorResult>;
  /** Gives back what a hold still holds (void, closeAuth, expiry). */
  release(reference: string, amountCents: number, requestKey: string): Promise<void>;
}
