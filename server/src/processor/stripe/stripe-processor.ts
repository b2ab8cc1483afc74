import Stripe from 'stripe';
import type { Currency } from '@svc/protocol';
import type {
  ActionRequired,
  Approval,
  NothingFound,
  PaymentDetails,
  PaymentMethodInput,
  PaymentProcessor,
  PaymentResult,
  ProcessorCapabilities,
  ProcessorResult,
  RefundResult,
} from '../processor';
import { authenticationReturnUrl } from '../authentication-return';
import { cardBrand } from '../sandbox-processor';
import { bankPageOf, threeDSecureOf } from './stripe-authentication';
import { stripeDecline } from './stripe-declines';

/** One Stripe account: its secret key; the API base comes from the operator's environment (STRIPE_API_BASE). */
export interface StripeAccount {
  secretKey: string;
  apiBase: string;
  /**
   * The service's public base URL (PUBLIC_BASE_URL), where the consumer's bank sends the consumer back after 3-D
   * Secure (the `return_url`, authentication-return.ts). Without it the bank's page is only the one Stripe names unasked.
   */
  serviceBaseUrl?: string;
}

/**
 * What the Stripe connector can do: one capture per PaymentIntent (a partial capture releases the rest, so no
 * closeAuth), no re-authorization (a new hold needs the card again), refunds, 3-D Secure (a PaymentIntent in
 * `requires_action` sends the consumer to the bank's page, and the return or Stripe's webhook completes it); cards
 * only, no installments.
 */
export const STRIPE_CAPABILITIES: ProcessorCapabilities = {
  multipleCaptures: false,
  reauthorize: false,
  closeAuth: false,
  refunds: true,
  wallets: false,
  installments: false,
  threeDSecure: true,
  savedCards: true,
};

const PROCESSOR = 'stripe';
/** What a call made with a key already reversed answers: the connector refuses it, as Stripe would. */
const REVERSED: ProcessorResult = { outcome: 'failed', processor: PROCESSOR, reason: 'this request was reversed' };
/** Answers kept per request key, as Stripe keeps an Idempotency-Key's answer (a day): a repeated key answers the same. */
const KEPT_ANSWERS = 10_000;
/** How many of the newest PaymentIntents a reversal looks through for its key when Stripe's search does not find it. */
const REVERSAL_SCAN = 2_000;
/** PaymentIntent statuses whose hold a cancel gives back. */
const CANCELLABLE = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action', 'requires_capture', 'processing']);

/**
 * The Stripe connector, on the official `stripe` package: a PaymentIntent per sale or authorization (manual capture),
 * confirmed at once with the card (a PaymentMethod attached to a Customer of its own, so a token can be charged again),
 * captured with `amount_to_capture`, cancelled to release, refunded by its id. Every call sends the request key as
 * Stripe's `Idempotency-Key` (a sub-call its own suffix) and the transaction number as `metadata.transactionNumber`;
 * the reference is the PaymentIntent's `pi_…` (a verification's, the PaymentMethod's `pm_…`).
 *
 * Operations on a held method look at the PaymentIntent first, so one made again after an unanswered call answers as
 * the first did even where the Idempotency-Key has expired (or is not kept, as by a test double): a captured intent is
 * not captured twice, a refund carrying the key in its metadata is not made twice.
 */
export class StripeProcessor implements PaymentProcessor {
  readonly kind = 'stripe' as const;
  readonly capabilities = STRIPE_CAPABILITIES;
  readonly remote = true;
  readonly #stripe: Stripe;
  readonly #serviceBaseUrl: string | null;
  readonly #answered = new Map<string, PaymentResult | RefundResult>();
  readonly #reversed = new Set<string>();
  /** When Stripe last answered a call (any answer, a decline too): readiness shows it. */
  lastAnswerAt: Date | null = null;

  constructor(account: StripeAccount, options: { timeoutMs?: number } = {}) {
    this.#serviceBaseUrl = account.serviceBaseUrl ?? null;
    const base = new URL(account.apiBase);
    this.#stripe = new Stripe(account.secretKey, {
      host: base.hostname,
      port: base.port || (base.protocol === 'https:' ? 443 : 80),
      protocol: base.protocol === 'http:' ? 'http' : 'https',
      // The service retries by itself (the worker, with the same key); a call not answered in time counts as unanswered.
      maxNetworkRetries: 0,
      timeout: options.timeoutMs ?? 30_000,
      telemetry: false,
    });
  }

  sale(method: PaymentMethodInput, amountCents: number, currency: Currency, requestKey: string, details: PaymentDetails): Promise<PaymentResult> {
    return this.#keep(requestKey, () => this.#pay(method, amountCents, currency, requestKey, details, 'automatic'));
  }

  authorize(method: PaymentMethodInput, amountCents: number, currency: Currency, requestKey: string, details: PaymentDetails): Promise<PaymentResult> {
    return this.#keep(requestKey, () => this.#pay(method, amountCents, currency, requestKey, details, 'manual'));
  }

  /**
   * The decision on a PaymentIntent that was in `requires_action`, once the consumer came back from the bank (or
   * Stripe's webhook said it moved): Stripe has decided by then, so the intent is read, never confirmed again.
   * Authorized or paid: an approval with how the 3-D Secure went. Back to `requires_payment_method`: the bank (or the
   * card) refused, a decline with Stripe's code (`payment_intent_authentication_failure`: `authentication_failed`).
   * Still `requires_action`: the consumer came back without authenticating, so the intent is cancelled (a late
   * authentication charges nothing) and the payment declined `authentication_failed`. Anything else is no decision
   * yet: it throws. Made once per key; a reversed key is refused.
   */
  completeAuthentication(reference: string, requestKey: string): Promise<ProcessorResult> {
    if (this.#reversed.has(requestKey)) return Promise.resolve(REVERSED);
    return this.#keep(`${requestKey}-authentication`, async (): Promise<ProcessorResult> => {
      const intent = await this.#call(() => this.#stripe.paymentIntents.retrieve(reference, { expand: ['payment_method', 'latest_charge'] }));
      if (intent.metadata?.['requestKey'] !== requestKey)
        return { outcome: 'failed', processor: PROCESSOR, reason: 'the PaymentIntent was not made by this request' };
      switch (intent.status) {
        case 'requires_capture':
        case 'succeeded': {
          const paymentMethod = typeof intent.payment_method === 'object' ? intent.payment_method : null;
          return { ...this.#approval(intent, paymentMethod), threeDSecure: threeDSecureOf(intent.latest_charge) };
        }
        case 'requires_payment_method': {
          const error = intent.last_payment_error;
          return { outcome: 'declined', processor: PROCESSOR, ...stripeDecline(error?.code, error?.decline_code) };
        }
        case 'requires_action':
          await this.#call(() => this.#stripe.paymentIntents.cancel(intent.id, {}, { idempotencyKey: `${requestKey}-unauthenticated` }));
          return { outcome: 'declined', processor: PROCESSOR, code: 'authentication_failed', processorCode: 'requires_action' };
        case 'canceled':
          return { outcome: 'failed', processor: PROCESSOR, reason: 'the PaymentIntent was cancelled before the authentication ended' };
        default:
          throw new Error(`the PaymentIntent is ${intent.status}: Stripe has not decided yet`);
      }
    });
  }

  async reauthorize(): Promise<ProcessorResult> {
    return { outcome: 'failed', processor: PROCESSOR, reason: 'the Stripe connector cannot re-authorize (capability reauthorize)' };
  }

  capture(reference: string, amountCents: number, _currency: Currency, requestKey: string): Promise<ProcessorResult> {
    return this.#keep(requestKey, async () => {
      const intent = await this.#call(() => this.#stripe.paymentIntents.retrieve(reference));
      if (intent.status === 'requires_capture') {
        const captured = await this.#call(() =>
          this.#stripe.paymentIntents.capture(reference, { amount_to_capture: amountCents }, { idempotencyKey: requestKey }),
        );
        return this.#approval(captured, null);
      }
      // Captured already (by this call made before, its answer lost): the same answer. Stripe captures once.
      if (intent.status === 'succeeded') return this.#approval(intent, null);
      return { outcome: 'failed', processor: PROCESSOR, reason: `the PaymentIntent is ${intent.status}, not capturable` };
    });
  }

  chargeToken(reference: string, amountCents: number, currency: Currency, requestKey: string): Promise<ProcessorResult> {
    return this.#keep(requestKey, async () => {
      const method = await this.#savedMethod(reference);
      if (!method) return { outcome: 'failed', processor: PROCESSOR, reason: 'the token names no saved payment method at Stripe' };
      const charged = await this.#confirmIntent(
        { ...method, amount: amountCents, currency: currency.toLowerCase(), capture_method: 'automatic', off_session: true, metadata: { requestKey } },
        requestKey,
        null,
        false,
      );
      // Nobody is there to answer a bank: Stripe refuses such a payment off-session; one that still asks is given up.
      if (charged.outcome !== 'requires_action') return charged;
      await this.#call(() => this.#stripe.paymentIntents.cancel(charged.reference, {}, { idempotencyKey: `${requestKey}-unauthenticated` }));
      return { outcome: 'declined', processor: PROCESSOR, code: 'authentication_failed', processorCode: 'authentication_required' };
    });
  }

  refund(reference: string, amountCents: number, requestKey: string): Promise<RefundResult> {
    return this.#keep(requestKey, async (): Promise<RefundResult> => {
      const made = await this.#call(() => this.#stripe.refunds.list({ payment_intent: reference, limit: 100 }));
      const earlier = made.data.find((refund) => refund.metadata?.requestKey === requestKey);
      try {
        const refund =
          earlier ??
          (await this.#call(() =>
            this.#stripe.refunds.create({ payment_intent: reference, amount: amountCents, metadata: { requestKey } }, { idempotencyKey: requestKey }),
          ));
        if (refund.status === 'failed' || refund.status === 'canceled') {
          return { outcome: 'declined', processor: PROCESSOR, code: 'refund_declined', processorCode: refund.failure_reason ?? refund.status };
        }
        return { outcome: 'approved', processor: PROCESSOR, reference: refund.id };
      } catch (error) {
        // A card error or a refund Stripe will not make (an intent refunded already, a failed payment).
        if (isStripeRefusal(error) || error instanceof Stripe.errors.StripeInvalidRequestError) {
          return { outcome: 'declined', processor: PROCESSOR, code: 'refund_declined', processorCode: error.code ?? 'refused' };
        }
        throw error;
      }
    });
  }

  async release(reference: string, _amountCents: number, requestKey: string): Promise<void> {
    if (!reference.startsWith('pi_')) return; // a verification holds nothing
    const intent = await this.#call(() => this.#stripe.paymentIntents.retrieve(reference));
    // Captured (Stripe gave the rest back then) or cancelled already: nothing is held.
    if (!CANCELLABLE.has(intent.status)) return;
    await this.#call(() => this.#stripe.paymentIntents.cancel(reference, {}, { idempotencyKey: requestKey }));
  }

  async reverse(requestKey: string): Promise<void | NothingFound> {
    this.#reversed.add(requestKey);
    const kept = this.#answered.get(requestKey);
    const reference =
      (kept?.outcome === 'approved' || kept?.outcome === 'requires_action') && 'reference' in kept ? kept.reference : await this.#intentMadeWith(requestKey);
    if (!reference) return { outcome: 'nothing_found', processor: PROCESSOR, searched: `Stripe's search, then the ${REVERSAL_SCAN} newest PaymentIntents` };
    if (!reference.startsWith('pi_')) return; // a verification's PaymentMethod: nothing was charged
    const intent = await this.#call(() => this.#stripe.paymentIntents.retrieve(reference));
    if (CANCELLABLE.has(intent.status)) {
      await this.#call(() => this.#stripe.paymentIntents.cancel(reference, {}, { idempotencyKey: `${requestKey}-reverse` }));
    } else if (intent.status === 'succeeded') {
      const made = await this.#call(() => this.#stripe.refunds.list({ payment_intent: reference, limit: 100 }));
      if (made.data.some((refund) => refund.metadata?.requestKey === `${requestKey}-reverse`)) return;
      await this.#call(() =>
        this.#stripe.refunds.create(
          { payment_intent: reference, metadata: { requestKey: `${requestKey}-reverse` } },
          { idempotencyKey: `${requestKey}-reverse` },
        ),
      );
    }
  }

  /** A card payment: the method saved on a Customer of its own (a token may charge it again), then the intent confirmed. */
  async #pay(
    method: PaymentMethodInput,
    amountCents: number,
    currency: Currency,
    requestKey: string,
    details: PaymentDetails,
    capture: 'automatic' | 'manual',
  ): Promise<PaymentResult> {
    if (method.method !== 'card') return { outcome: 'failed', processor: PROCESSOR, reason: 'the Stripe connector takes cards only (capability wallets)' };
    const { card } = method;
    const metadata = { transactionNumber: details.transactionNumber, requestKey };
    try {
      const paymentMethod = await this.#call(() =>
        this.#stripe.paymentMethods.create(
          { type: 'card', card: { number: card.number.replace(/[\s-]/g, ''), exp_month: card.expMonth, exp_year: card.expYear, cvc: card.cvc } },
          { idempotencyKey: `${requestKey}-pm` },
        ),
      );
      const customer = await this.#call(() => this.#stripe.customers.create({ metadata }, { idempotencyKey: `${requestKey}-customer` }));
      await this.#call(() => this.#stripe.paymentMethods.attach(paymentMethod.id, { customer: customer.id }, { idempotencyKey: `${requestKey}-attach` }));
      // 0 cents only verifies the method (the attach did): the token stands for the saved method.
      if (amountCents === 0) return this.#verified(paymentMethod);
      return await this.#confirmIntent(
        { customer: customer.id, payment_method: paymentMethod.id, amount: amountCents, currency: currency.toLowerCase(), capture_method: capture, metadata },
        requestKey,
        paymentMethod,
        true,
      );
    } catch (error) {
      if (isStripeRefusal(error)) return { outcome: 'declined', processor: PROCESSOR, ...stripeDecline(error.code, error.decline_code) };
      throw error;
    }
  }

  /**
   * The PaymentIntent created and confirmed at once; one that needs the bank answers `requires_action`, with the bank's
   * page when a consumer is there to open it (`consumerPresent`).
   */
  async #confirmIntent(
    params: Stripe.PaymentIntentCreateParams & { amount: number; currency: string },
    requestKey: string,
    paymentMethod: Stripe.PaymentMethod | null,
    consumerPresent: boolean,
  ): Promise<ProcessorResult | ActionRequired> {
    try {
      const intent = await this.#call(() => this.#stripe.paymentIntents.create({ ...params, confirm: true }, { idempotencyKey: requestKey }));
      if (intent.status === 'requires_capture' || intent.status === 'succeeded') return this.#approval(intent, paymentMethod);
      if (intent.status === 'requires_action') {
        const actionUrl = consumerPresent ? await this.#bankPage(intent, requestKey) : null;
        return { outcome: 'requires_action', processor: PROCESSOR, reference: intent.id, actionUrl };
      }
      const error = intent.last_payment_error;
      if (error) return { outcome: 'declined', processor: PROCESSOR, ...stripeDecline(error.code, error.decline_code) };
      return { outcome: 'failed', processor: PROCESSOR, reason: `the PaymentIntent is ${intent.status}` };
    } catch (error) {
      if (isStripeRefusal(error)) return { outcome: 'declined', processor: PROCESSOR, ...stripeDecline(error.code, error.decline_code) };
      throw error;
    }
  }

  /**
   * The bank's page for an intent in `requires_action`, with the service's return URL: Stripe names a redirect only
   * for a confirmation that carried a `return_url`, so the intent is confirmed again with it (its own key), and
   * `next_action.redirect_to_url` is the page. An API that takes no `return_url` there (localstripe, which simulates
   * the bank without a page) refuses it: the page is then the one Stripe named unasked, if any.
   */
  async #bankPage(intent: Stripe.PaymentIntent, requestKey: string): Promise<string | null> {
    const named = bankPageOf(intent);
    if (!this.#serviceBaseUrl || intent.next_action?.type === 'redirect_to_url') return named;
    const returnUrl = authenticationReturnUrl(this.#serviceBaseUrl, requestKey);
    try {
      const redirected = await this.#call(() =>
        this.#stripe.paymentIntents.confirm(intent.id, { return_url: returnUrl }, { idempotencyKey: `${requestKey}-redirect` }),
      );
      return bankPageOf(redirected) ?? named;
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return named;
      throw error;
    }
  }

  #approval(intent: Stripe.PaymentIntent, paymentMethod: Stripe.PaymentMethod | null): Approval {
    const card = paymentMethod?.card;
    return {
      outcome: 'approved',
      processor: PROCESSOR,
      reference: intent.id,
      paymentId: intent.id,
      authNumber: intent.id.slice(-6).toUpperCase(),
      supportsCloseAuth: false,
      paymentMethodName: card ? brandName(card.brand) : '',
      lastFourDigits: card?.last4 ?? null,
    };
  }

  #verified(paymentMethod: Stripe.PaymentMethod): Approval {
    const card = paymentMethod.card;
    return {
      outcome: 'approved',
      processor: PROCESSOR,
      reference: paymentMethod.id,
      authNumber: paymentMethod.id.slice(-6).toUpperCase(),
      supportsCloseAuth: false,
      paymentMethodName: card ? brandName(card.brand) : '',
      lastFourDigits: card?.last4 ?? null,
    };
  }

  /** The saved method a token stands for: its PaymentIntent's, or the verified PaymentMethod itself. */
  async #savedMethod(reference: string): Promise<{ customer: string; payment_method: string } | null> {
    if (reference.startsWith('pi_')) {
      const intent = await this.#call(() => this.#stripe.paymentIntents.retrieve(reference));
      const customer = idOf(intent.customer);
      const paymentMethod = idOf(intent.payment_method);
      return customer && paymentMethod ? { customer, payment_method: paymentMethod } : null;
    }
    if (reference.startsWith('pm_')) {
      const paymentMethod = await this.#call(() => this.#stripe.paymentMethods.retrieve(reference));
      const customer = idOf(paymentMethod.customer);
      return customer ? { customer, payment_method: paymentMethod.id } : null;
    }
    return null;
  }

  /**
   * The PaymentIntent a payment made with `requestKey` created, if any (its metadata names the key): Stripe's search
   * first; then, where search is not offered (some accounts' regions, an emulation such as localstripe) or has not
   * indexed the intent yet (it can take a minute), the REVERSAL_SCAN newest intents, page by page.
   */
  async #intentMadeWith(requestKey: string): Promise<string | null> {
    const found = await this.#searchIntent(requestKey);
    if (found) return found;
    return this.#call(async () => {
      let seen = 0;
      for await (const intent of this.#stripe.paymentIntents.list({ limit: 100 })) {
        if (intent.metadata?.requestKey === requestKey) return intent.id;
        if (++seen >= REVERSAL_SCAN) break;
      }
      return null;
    });
  }

  /** Stripe's search for the intent whose metadata names `requestKey`; null when none is found or search is not offered. */
  async #searchIntent(requestKey: string): Promise<string | null> {
    const query = `metadata['requestKey']:'${requestKey.replace(/['\\]/g, '\\$&')}'`;
    try {
      const found = await this.#call(() => this.#stripe.paymentIntents.search({ query, limit: 1 }));
      return found.data[0]?.id ?? null;
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return null;
      throw error;
    }
  }

  /** A keyed call: made once per key while its answer is kept; a key reversed is refused, as Stripe would. */
  async #keep<T extends PaymentResult | RefundResult>(requestKey: string, call: () => Promise<T>): Promise<T> {
    if (this.#reversed.has(requestKey)) return REVERSED as T;
    const earlier = this.#answered.get(requestKey);
    if (earlier) return earlier as T;
    const answer = await call();
    this.#answered.set(requestKey, answer);
    if (this.#answered.size > KEPT_ANSWERS) this.#answered.delete(this.#answered.keys().next().value!);
    return answer;
  }

  /** A Stripe call; any answer, a refusal too, counts as Stripe reachable. */
  async #call<T>(call: () => Promise<T>): Promise<T> {
    try {
      const answer = await call();
      this.lastAnswerAt = new Date();
      return answer;
    } catch (error) {
      if (isStripeRefusal(error) || error instanceof Stripe.errors.StripeInvalidRequestError) this.lastAnswerAt = new Date();
      throw error;
    }
  }
}

/** Stripe refused (a card error, or any 402): an answer, not a failure to reach it. */
function isStripeRefusal(error: unknown): error is Stripe.errors.StripeError {
  return error instanceof Stripe.errors.StripeCardError || (error instanceof Stripe.errors.StripeError && error.statusCode === 402);
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function brandName(brand: string): string {
  const names: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' };
  return names[brand] ?? cardBrand('');
}
