import type { CardInput, Currency, ThreeDSecure, WalletMethod } from '@svc/protocol';
import type { AuthenticationReturn } from './authentication-return';

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
  /** The 3-D Secure that took place before the approval (frictionless, or a challenge completed); absent when none did. */
  threeDSecure?: ThreeDSecure;
  /** The processor's id of this payment (a Stripe PaymentIntent `pi_…`, an Adyen `pspReference`): the confirmation's `serviceReferenceId`. */
  paymentId?: string;
}

/** The service's decline codes for a payment; each connector maps its acquirer's own codes onto them. */
export type PaymentDeclineCode = 'card_declined' | 'insufficient_funds' | 'expired_card' | 'incorrect_cvc' | 'authentication_failed';

export interface Refusal {
  outcome: 'declined';
  processor: string;
  /** A payment's decline (`card_declined`, `insufficient_funds`, `expired_card`, …), or a refund's (`refund_declined`). */
  code: PaymentDeclineCode | 'refund_declined';
  /** The acquirer's own decline code (Stripe's `decline_code`, Adyen's `refusalReasonCode`), kept beside the service's. */
  processorCode?: string;
}

export interface Failure {
  outcome: 'failed';
  processor: string;
  reason: string;
}

export type ProcessorResult = Approval | Refusal | Failure;

/**
 * The consumer's bank asks for 3-D Secure before it decides (docs/integrating.md#3-d-secure): `sale` and `authorize` of a
 * card the consumer presents (a link's page, a widget's session) may answer this. The payment waits at the processor
 * under `reference`; `actionUrl` is the bank's page the consumer must open, or null when the service shows its own (the
 * sandbox's simulated bank). `completeAuthentication` then gives the decision; a payment never completed is reversed by
 * its request key.
 */
export interface ActionRequired {
  outcome: 'requires_action';
  processor: string;
  reference: string;
  actionUrl: string | null;
}

/** What a payment the consumer presents a method for answers: a decision, or the bank's step first. */
export type PaymentResult = ProcessorResult | ActionRequired;

/**
 * What a reversal answers when the acquirer shows nothing made with its key: the call never reached it (nothing to
 * undo), or the connector could not find what it made (`searched` says where it looked). The service logs it
 * (`processor_reversal_nothing_found`) for the operator to check at the acquirer.
 */
export interface NothingFound {
  outcome: 'nothing_found';
  processor: string;
  searched: string;
}

/** Which connector a processor is. */
export type ProcessorKind = 'sandbox' | 'stripe' | 'adyen';

/**
 * What a connector can do. The services refuse an operation its processor cannot do before anything moves (409
 * `processor_unsupported`, `requireCapability`); without `multipleCaptures` a partial capture captures once and releases
 * the rest of the hold.
 */
export interface ProcessorCapabilities {
  /** Several partial captures against one hold. */
  multipleCaptures: boolean;
  /** A new hold on a method already authorized once. */
  reauthorize: boolean;
  /** Giving back the rest of a hold once the merchant is done capturing (closeAuth). */
  closeAuth: boolean;
  refunds: boolean;
  /** PayPal, Apple Pay, Google Pay. */
  wallets: boolean;
  installments: boolean;
  threeDSecure: boolean;
  /** A card saved at the processor (a tokenize payment) and charged again by its token (a token charge). */
  savedCards: boolean;
}

/** What a payment carries besides its method and amount: the merchant reference and the installments chosen. */
export interface PaymentDetails {
  /** The transaction's number: the processor's merchant reference (Stripe `metadata.transactionNumber`, Adyen `reference`). */
  transactionNumber: string;
  /** How many installments the consumer chose; 1 when none. */
  installments: number;
}

/**
 * An answer that is not the outcome yet: the acquirer took the request (Adyen's captures, cancels and refunds answer
 * `received`) and tells the outcome later, by webhook, naming `reference` (the modification's own id at the acquirer).
 * The operation stays in flight, what it reserved stays reserved, and the merchant is answered 202 with the payment or
 * refund `pending`; the webhook records the outcome as any answer is recorded (docs/design/processor-requests.md,
 * "Outcomes that arrive later"). Asked again with the same key (the worker), the acquirer answers `Pending` again
 * until the outcome is known.
 */
export interface Pending {
  outcome: 'pending';
  processor: string;
  reference: string;
}

/** A refund's answer: the money goes back to the method (approved), or the processor declines or fails it. */
export type RefundResult =
  /** `reference`: the refund's id at the processor (a Stripe `re_…`), where it has one. */
  { outcome: 'approved'; processor: string; reference?: string } | (Refusal & { code: 'refund_declined' }) | Failure;

/**
 * The processor port: every call the service makes to an acquirer. The sandbox processor implements it (outcomes
 * follow the test cards); a real acquirer implements it too and is returned by `processorForMode` for production,
 * which refuses to start on the sandbox one (how to write and test one: docs/design/processor-requests.md, "Writing a
 * connector"). Amounts are integer cents in the given currency.
 *
 * - `kind` names the connector and `capabilities` says what it can do: the services check them before asking.
 * - Results, not exceptions: an approval, a decline (`card_declined`, `insufficient_funds`, `expired_card`,
 *   `incorrect_cvc`, `authentication_failed`, with the acquirer's own `processorCode`) or a failure. A thrown
 *   error means no answer: the services tell the caller (502 `processor_failure`) and, where the call can be made
 *   again, leave it in flight for the worker; declines and failures become 402/502.
 * - `reference` stands for the payment method at the processor. It is stored on tokens (never card data) and
 *   handed back for later operations on the same method.
 * - Every call is made outside any database transaction or lock: the change that asks commits first (a payment
 *   marked in flight, an Idempotency-Key taken) together with a processor_requests row, and the outcome is recorded by
 *   a guarded write of its own, so a slow acquirer holds no row and no connection. The service gives a call
 *   PROCESSOR_TIMEOUT_MS; one not answered by then counts as unanswered.
 * - Every call carries `requestKey`, the same on every attempt of one call: an implementation sends it as its
 *   acquirer's idempotency key (or merchant reference), so a repeated call answers as the first one did and moves
 *   no money twice.
 * - `capture`, `reauthorize` and `release` act on a method already held: after a crash or an unanswered call, the
 *   worker makes them again with the same key. `sale`, `authorize` and `chargeToken` are made only by the request
 *   that asked (the card lives only in its memory, or the outcome creates the record): when one is not answered, or
 *   its approval cannot be recorded, the service calls `reverse` with its key instead (the acquirer's technical
 *   cancel, or a reversal for a timeout), so no payment stays charged that the service has not recorded.
 * - `authorize` with 0 cents only verifies the method (an authorization whose amount comes later).
 * - `refund` gives settled money back to the method that paid it (`reference`: the sale's, the committed payment's,
 *   or the authorization's whose captures it refunds). Like a capture it acts on a method already held, so an
 *   unanswered refund is asked again with the same key until it is answered; it is never reversed.
 */
export interface PaymentProcessor {
  readonly kind: ProcessorKind;
  readonly capabilities: ProcessorCapabilities;
  /**
   * Whether its calls go over the network to an acquirer; false for one that answers in memory (the sandbox's).
   * Readiness reports when a remote one's acquirer last answered (`lastAnswerAt`, which such a connector may keep).
   */
  readonly remote: boolean;
  /** When the acquirer last answered a call (any answer, a decline too), for readiness. */
  readonly lastAnswerAt?: Date | null;
  sale(method: PaymentMethodInput, amountCents: number, currency: Currency, requestKey: string, details: PaymentDetails): Promise<PaymentResult>;
  authorize(method: PaymentMethodInput, amountCents: number, currency: Currency, requestKey: string, details: PaymentDetails): Promise<PaymentResult>;
  /**
   * The decision on a payment that answered `requires_action`, once the consumer has answered the bank: the same
   * payment (`reference`, and the `requestKey` of the sale or authorization that asked), never a second charge; a
   * repeated call answers as the first. An authentication the bank refused is a decline `authentication_failed`.
   * `returned` is what the bank's return to the service carried (authentication-return.ts), when the completion comes
   * from it. Only a connector whose `capabilities.threeDSecure` is true has it (and only it answers `requires_action`).
   */
  completeAuthentication?(reference: string, requestKey: string, returned?: AuthenticationReturn): Promise<ProcessorResult>;
  /** A new hold on a method already authorized once (re-authorization). */
  reauthorize(reference: string, amountCents: number, currency: Currency, requestKey: string): Promise<ProcessorResult>;
  /** Takes the amount from the hold; an asynchronous acquirer answers `Pending` until its webhook tells the outcome. */
  capture(reference: string, amountCents: number, currency: Currency, requestKey: string): Promise<ProcessorResult | Pending>;
  /** A new sale on a tokenized method. */
  chargeToken(reference: string, amountCents: number, currency: Currency, requestKey: string): Promise<ProcessorResult>;
  /** Gives `amountCents` (in `currency`, the payment's) of what was settled on `reference` back to the consumer; or `Pending`. */
  refund(reference: string, amountCents: number, requestKey: string, currency?: Currency): Promise<RefundResult | Pending>;
  /** Gives back what a hold still holds (void, closeAuth, expiry); or `Pending`, until the acquirer's webhook says it did. */
  release(reference: string, amountCents: number, requestKey: string): Promise<void | Pending>;
  /**
   * Undoes whatever the `sale`, `authorize` or `chargeToken` call made with `requestKey` did: a charge is reversed, a
   * hold given back. Resolves too when that call never reached the acquirer or was declined (nothing to undo), and
   * when the call is still on its way (the acquirer refuses it when it arrives); a connector that looks the payment up
   * by its key answers `NothingFound` when it finds none. Throws only when not answered, or when it cannot tell (an
   * acquirer whose reversal needs what this process no longer knows). `reference`: the payment's own at the processor,
   * when the service knows it (a 3-D Secure payment's `ActionRequired.reference`), for a connector that cannot find
   * the payment by its key alone (Adyen's technical cancel names it).
   */
  reverse(requestKey: string, reference?: string): Promise<void | NothingFound>;
}
