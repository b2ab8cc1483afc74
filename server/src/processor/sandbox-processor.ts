import { randomBytes } from '../random-bytes';
import { SANDBOX_3DS_CARDS, SANDBOX_TEST_CARDS, type Currency, type SandboxCardOutcome, type ThreeDSecure } from '@svc/protocol';
import type { PaymentDetails, PaymentMethodInput, PaymentProcessor, PaymentResult, ProcessorCapabilities, ProcessorResult, RefundResult } from './processor';
import { newConfirmationNumber } from '../ids';

const KEPT_ANSWERS = 100_000;

/** The sandbox does everything a connector may, so every flow can be tried on it. */
export const SANDBOX_CAPABILITIES: ProcessorCapabilities = {
  multipleCaptures: true,
  reauthorize: true,
  closeAuth: true,
  refunds: true,
  wallets: true,
  installments: true,
  threeDSecure: true,
  savedCards: true,
};
/** What a call made after its key was reversed answers: the acquirer refuses it. */
const REVERSED: ProcessorResult = { outcome: 'failed', processor: 'sandbox', reason: 'this request was reversed' };

type Kept = PaymentResult | RefundResult | 'released';
/** Marks the reference of a test card whose refunds the sandbox declines (`sbx_<processor>_norefund_…`). */
const REFUNDS_DECLINED = 'norefund_';
/** Marks the reference of a payment waiting for the simulated bank (`sbx_alpha_3ds_<challenge|declined>_…`). */
const AWAITING_BANK = '3ds_';
const THREE_DS_VERSION = '2.2.0';
const WALLET_NAMES = { paypal: 'PayPal', applepay: 'Apple Pay', googlepay: 'Google Pay' } as const;

/**
 * The sandbox processor (docs/integrating.md#sandbox): outcomes follow the test cards; any other Luhn-valid card and every
 * wallet approve on processor alpha. References encode the processor and the behaviour, so later operations on
 * a token behave like the method it stands for.
 */
export class SandboxProcessor implements PaymentProcessor {
  /** Answered in memory: there is no acquirer to reach. */
  readonly remote: boolean = false;
  readonly kind = 'sandbox' as const;
  readonly capabilities: ProcessorCapabilities = SANDBOX_CAPABILITIES;
  /** What each keyed call answered, as an acquirer keeps it: a repeated key gets the same answer, no second move. */
  readonly #answered = new Map<string, Kept>();
  #held: Promise<void> | null = null;

  /**
   * For tests: from now on, calls (all but releases) take effect at once but answer only when `answer()` is
   * called, as a slow acquirer does. After `passNewCalls()`, later calls are answered at once while the held ones
   * still wait: a held call never answered is a process that crashed between the call and recording its outcome. A
   * later call with the same key gets the answer the first one had.
   */
  holdAnswers(): { answer(): void; passNewCalls(): void } {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    this.#held = held;
    const passNewCalls = () => {
      if (this.#held === held) this.#held = null;
    };
    return {
      answer: () => {
        passNewCalls();
        answer();
      },
      passNewCalls,
    };
  }

  sale(method: PaymentMethodInput, _amountCents: number, _currency: Currency, requestKey: string, _details?: PaymentDetails): Promise<PaymentResult> {
    return this.#answer(requestKey, () => this.#decide(method));
  }

  authorize(method: PaymentMethodInput, _amountCents: number, _currency: Currency, requestKey: string, _details?: PaymentDetails): Promise<PaymentResult> {
    return this.#answer(requestKey, () => this.#decide(method));
  }

  /**
   * The simulated bank's challenge was completed: the card of `reference` decides (4000 0000 0000 3220 approves,
   * 4000 0084 0000 1629 declines `card_declined`). Keyed by the payment's own request key plus a suffix, so a second
   * completion answers as the first and a reversed payment stays reversed. The service's simulated bank page ends a
   * failed challenge itself (`authentication_failed`) and reverses the payment by its key.
   */
  completeAuthentication(reference: string, requestKey: string): Promise<ProcessorResult> {
    if (this.#answered.get(requestKey) === REVERSED) return Promise.resolve(REVERSED);
    return this.#answer(`${requestKey}:3ds`, (): ProcessorResult => {
      const behaviour = new RegExp(`^sbx_alpha_${AWAITING_BANK}(challenge|declined)_`).exec(reference)?.[1];
      if (!behaviour) return { outcome: 'failed', processor: 'unknown', reason: 'no authentication waits under this reference' };
      if (behaviour === 'declined') return { outcome: 'declined', processor: 'alpha', code: 'card_declined', processorCode: 'do_not_honor' };
      const approval = this.#approve('alpha', true, 'Visa', '3220');
      return approval.outcome === 'approved' ? { ...approval, threeDSecure: authenticated('challenge') } : approval;
    });
  }

  reauthorize(reference: string, _amountCents: number, _currency: Currency, requestKey: string): Promise<ProcessorResult> {
    return this.#answer(requestKey, () => this.#fromReference(reference));
  }

  capture(reference: string, _amountCents: number, _currency: Currency, requestKey: string): Promise<ProcessorResult> {
    return this.#answer(requestKey, () => this.#fromReference(reference));
  }

  chargeToken(reference: string, _amountCents: number, _currency: Currency, requestKey: string): Promise<ProcessorResult> {
    return this.#answer(requestKey, () => this.#fromReference(reference));
  }

  /** Approved, unless the payment was made with the test card whose refunds are declined (its reference says so). */
  refund(reference: string, _amountCents: number, requestKey: string): Promise<RefundResult> {
    return this.#answer(requestKey, (): RefundResult => {
      const processor = /^sbx_(alpha|beta)_/.exec(reference)?.[1];
      if (!processor) return { outcome: 'failed', processor: 'unknown', reason: 'unknown processor reference' };
      if (reference.startsWith(`sbx_${processor}_${REFUNDS_DECLINED}`)) return { outcome: 'declined', processor, code: 'refund_declined' };
      return { outcome: 'approved', processor };
    });
  }

  async release(_reference: string, _amountCents: number, requestKey: string): Promise<void> {
    this.#once(requestKey, () => 'released');
  }

  /** The payment made with `requestKey` is undone; a call with that key arriving later is refused, as an acquirer does. */
  async reverse(requestKey: string): Promise<void> {
    this.#answered.set(requestKey, REVERSED);
  }

  /** A keyed call: decided at once (once per key), answered when held answers are let through. */
  async #answer<T extends PaymentResult | RefundResult>(requestKey: string, decide: () => T): Promise<T> {
    const answer = this.#once(requestKey, decide);
    await this.#held;
    return answer as T;
  }

  #once(requestKey: string, call: () => Kept): Kept {
    const earlier = this.#answered.get(requestKey);
    if (earlier) return earlier;
    const answer = call();
    this.#answered.set(requestKey, answer);
    // An acquirer keeps keys for a day or so; the sandbox keeps the latest ones.
    if (this.#answered.size > KEPT_ANSWERS) this.#answered.delete(this.#answered.keys().next().value!);
    return answer;
  }

  #decide(method: PaymentMethodInput): PaymentResult {
    if (method.method !== 'card') {
      return this.#approve('alpha', true, WALLET_NAMES[method.method], null);
    }
    const number = method.card.number.replace(/[\s-]/g, '');
    const threeDs = SANDBOX_3DS_CARDS.find((c) => c.number === number)?.threeDSecure;
    if (threeDs === 'frictionless') {
      const approval = this.#approve('alpha', true, cardBrand(number), number.slice(-4));
      return approval.outcome === 'approved' ? { ...approval, threeDSecure: authenticated('frictionless') } : approval;
    }
    if (threeDs) {
      const kind = threeDs === 'challenge' ? 'challenge' : 'declined';
      return {
        outcome: 'requires_action',
        processor: 'alpha',
        reference: `sbx_alpha_${AWAITING_BANK}${kind}_${randomBytes(12).toString('hex')}`,
        actionUrl: null,
      };
    }
    const known = SANDBOX_TEST_CARDS.find((c) => c.number === number);
    const outcome: SandboxCardOutcome = known?.outcome ?? 'approved';
    const processor = known?.processor ?? 'alpha';
    if (outcome === 'card_declined' || outcome === 'insufficient_funds') return { outcome: 'declined', processor, code: outcome };
    if (outcome === 'processor_failure') return { outcome: 'failed', processor, reason: 'sandbox test card 4000 0000 0000 0119' };
    return this.#approve(processor, known?.supportsCloseAuth ?? true, cardBrand(number), number.slice(-4), known?.refundsDeclined ?? false);
  }

  #approve(processor: string, supportsCloseAuth: boolean, paymentMethodName: string, lastFourDigits: string | null, refundsDeclined = false): ProcessorResult {
    return {
      outcome: 'approved',
      processor,
      reference: `sbx_${processor}_${refundsDeclined ? REFUNDS_DECLINED : ''}${randomBytes(12).toString('hex')}`,
      authNumber: newConfirmationNumber().slice(0, 6),
      supportsCloseAuth,
      paymentMethodName,
      lastFourDigits,
    };
  }

  #fromReference(reference: string): ProcessorResult {
    const processor = /^sbx_(alpha|beta)_/.exec(reference)?.[1];
    if (!processor) return { outcome: 'failed', processor: 'unknown', reason: 'unknown processor reference' };
    return {
      outcome: 'approved',
      processor,
      reference,
      authNumber: newConfirmationNumber().slice(0, 6),
      supportsCloseAuth: processor === 'alpha',
      paymentMethodName: '',
      lastFourDigits: null,
    };
  }
}

/** What the simulated bank reports of an authentication it made. */
function authenticated(flow: ThreeDSecure['flow']): ThreeDSecure {
  return { authenticated: true, flow, version: THREE_DS_VERSION, eci: '05', liabilityShift: true };
}

export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'Mastercard';
  if (/^3[47]/.test(number)) return 'American Express';
  if (/^6(011|5)/.test(number)) return 'Discover';
  return 'Card';
}
