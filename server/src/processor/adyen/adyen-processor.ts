import adyen from '@adyen/api-library';
import type { Types } from '@adyen/api-library';
import type { Currency } from '@svc/protocol';
import type {
  ActionRequired,
  Approval,
  PaymentDetails,
  PaymentMethodInput,
  PaymentProcessor,
  PaymentResult,
  Pending,
  ProcessorCapabilities,
  ProcessorResult,
  RefundResult,
} from '../processor';
import { authenticationReturnUrl, type AuthenticationReturn } from '../authentication-return';
import { cardBrand } from '../sandbox-processor';
import { adyenDeclineCode } from './adyen-declines';
import { checkoutApis, type CheckoutApis } from './adyen-checkout';
import { adyenThreeDSecure, bankPageOf, cardFromAdditionalData } from './adyen-authentication';

type PaymentRequest = Types.checkout.PaymentRequest;
type PaymentResponse = Types.checkout.PaymentResponse;
type PaymentDetailsResponse = Types.checkout.PaymentDetailsResponse;
/** The card as the approval names it: its brand and last four digits (never the number). */
type CardName = { paymentMethodName: string; lastFourDigits: string | null };

/** One Adyen merchant account: its API key, its merchant account code, and the Checkout API base (ADYEN_CHECKOUT_URL). */
export interface AdyenAccount {
  apiKey: string;
  merchantAccount: string;
  /** The Checkout API v71 base, `https://…/v71`: Adyen's test or live endpoint, or a test double. */
  checkoutUrl: string;
  /**
   * The service's public base URL: each payment's `returnUrl` (PaymentRequest's, required), where a shopper sent to
   * the bank comes back to, is made from it (authentication-return.ts).
   */
  returnUrl: string;
}

const PROCESSOR = 'adyen';

/**
 * What the Adyen connector can do: several partial captures, a cancel of what a hold still holds (closeAuth), refunds,
 * installments, and 3-D Secure (Adyen's redirect: the shopper goes to the bank's page and comes back with the
 * `redirectResult` that `/payments/details` decides on); no re-authorization (this connector does not make Adyen's
 * authorisation adjustments), no wallets, no saved cards (it stores no payment methods at Adyen).
 */
export const ADYEN_CAPABILITIES: ProcessorCapabilities = {
  multipleCaptures: true,
  reauthorize: false,
  closeAuth: true,
  refunds: true,
  wallets: false,
  installments: true,
  threeDSecure: true,
  savedCards: false,
};
const KEPT_KEYS = 100_000;
/** What a payment made with a key already reversed answers: the connector refuses it, as the sandbox's acquirer does. */
const REVERSED: ProcessorResult = { outcome: 'failed', processor: PROCESSOR, reason: 'this request was reversed' };

/**
 * The Adyen connector (docs/operating.md#adyen), on Adyen's Node library (`@adyen/api-library`), Checkout API v71:
 * `POST /payments` with the card's own fields (the card frame collects them; Adyen's encrypted fields need its
 * web components), the transaction number as `reference`, the service's request key as `Idempotency-Key` on every call,
 * so a repeated call answers as the first one did. An authorization asks for manual capture
 * (`additionalData.manualCapture`), a sale for capture at once (`captureDelayHours: 0`), whatever the account's
 * default is.
 *
 * Captures, cancels (a release) and refunds are asynchronous at Adyen: the API answers `received`, and the outcome
 * arrives later as a webhook (`CAPTURE`, `CANCELLATION`, `REFUND`, or `*_FAILED`). They answer `Pending` with the
 * modification's `pspReference`, which the webhook names: the operation stays in flight until it arrives
 * (adyen-notifications.ts). It makes no re-authorization (Adyen's authorisation adjustment).
 */
export class AdyenProcessor implements PaymentProcessor {
  readonly kind = 'adyen' as const;
  readonly capabilities: ProcessorCapabilities = ADYEN_CAPABILITIES;
  readonly remote = true;

  readonly #api: CheckoutApis;
  /**
   * Each payment's key and what it is at Adyen (its reference until authorised, then its pspReference), for `reverse`;
   * and, while it waits for the bank, the card's name for the approval that may follow.
   */
  readonly #payments = new Map<string, { reference: string; pspReference: string | null; card?: CardName }>();
  readonly #reversed = new Set<string>();
  /** Keys of payments this process made that hold nothing (declined, or refused as sent): a reversal has nothing to undo. */
  readonly #undone = new Set<string>();
  /** The decision `/payments/details` gave each payment that waited for the bank: a completion asked again answers it. */
  readonly #completed = new Map<string, ProcessorResult>();

  constructor(
    private readonly account: AdyenAccount,
    api?: CheckoutApis,
  ) {
    this.#api = api ?? checkoutApis(account);
  }

  sale(method: PaymentMethodInput, amountCents: number, currency: Currency, requestKey: string, details: PaymentDetails): Promise<PaymentResult> {
    return this.#pay(method, amountCents, currency, requestKey, details, { captureDelayHours: 0 });
  }

  authorize(method: PaymentMethodInput, amountCents: number, currency: Currency, requestKey: string, details: PaymentDetails): Promise<PaymentResult> {
    return this.#pay(method, amountCents, currency, requestKey, details, { additionalData: { manualCapture: 'true' } });
  }

  /**
   * The decision on a payment Adyen sent to the bank (`RedirectShopper`), from the `redirectResult` the shopper came
   * back with: `POST /payments/details` (its own Idempotency-Key, `<key>-details`), once per payment; asked again, the
   * first decision is answered. `Authorised` approves (with how the 3-D Secure went), `Refused` declines (refusal
   * reason 11, "3D Not Authenticated": `authentication_failed`). A return without a `redirectResult` (the shopper
   * came back without the bank's answer) gives Adyen nothing to decide on: the payment is cancelled by its own
   * reference, so a late answer charges nothing, and declined `authentication_failed`. A `/payments/details` Adyen
   * does not decide (a 422 for a redirectResult it does not take, an `Error` or `Cancelled`) says nothing of what
   * became of the payment: it throws, as an unanswered call, and the service reverses the payment.
   */
  async completeAuthentication(reference: string, requestKey: string, returned?: AuthenticationReturn): Promise<ProcessorResult> {
    if (this.#reversed.has(requestKey)) return REVERSED;
    const earlier = this.#completed.get(requestKey);
    if (earlier) return earlier;
    const redirectResult = returned?.redirectResult;
    if (!redirectResult) {
      const paymentReference = this.#payments.get(requestKey)?.reference;
      if (!paymentReference) throw new Error(`Adyen payment ${reference} came back without a redirectResult, and its reference is not known here`);
      await this.#api.ModificationsApi.cancelAuthorisedPayment(
        { merchantAccount: this.account.merchantAccount, paymentReference, reference: requestKey },
        { idempotencyKey: `${requestKey}-unauthenticated` },
      );
      const unauthenticated: ProcessorResult = { outcome: 'declined', processor: PROCESSOR, code: 'authentication_failed', processorCode: 'RedirectShopper' };
      this.#remember(this.#completed, requestKey, unauthenticated);
      return unauthenticated;
    }
    let response: PaymentDetailsResponse;
    try {
      response = await this.#api.PaymentsApi.paymentsDetails({ details: { redirectResult } }, { idempotencyKey: `${requestKey}-details` });
    } catch (error) {
      const refused = refusedRequest(error);
      if (!refused) throw error;
      response = { resultCode: 'Error' as PaymentDetailsResponse['resultCode'], refusalReason: refused.reason };
    }
    const waiting = this.#payments.get(requestKey);
    const card = waiting?.card ?? cardFromAdditionalData(response.additionalData);
    const result = paymentResult(response, card);
    if (result.outcome === 'requires_action') throw new Error('Adyen asked for the bank again after the bank answered');
    if (result.outcome === 'approved') {
      const decided: Approval = { ...result, threeDSecure: adyenThreeDSecure(response.additionalData) };
      this.#remember(this.#payments, requestKey, { reference: waiting?.reference ?? reference, pspReference: decided.reference });
      this.#remember(this.#completed, requestKey, decided);
      return decided;
    }
    // Adyen could not decide (a 422 for a redirectResult it does not take, an `Error`): what became of the payment is
    // not known, so it is no answer; the service reverses the payment by its key and reference.
    if (result.outcome === 'failed') throw new Error(`Adyen did not decide the payment after the bank (${result.reason})`);
    this.#remember(this.#completed, requestKey, result);
    return result;
  }

  /** Not offered (`capabilities.reauthorize` is false): the services refuse it before asking. */
  async reauthorize(): Promise<ProcessorResult> {
    return { outcome: 'failed', processor: PROCESSOR, reason: 'the Adyen connector does not re-authorize' };
  }

  /** Not offered (`capabilities.savedCards` is false: no stored payment methods at Adyen): the services refuse it before asking. */
  async chargeToken(): Promise<ProcessorResult> {
    return { outcome: 'failed', processor: PROCESSOR, reason: 'the Adyen connector does not charge saved cards' };
  }

  async capture(reference: string, amountCents: number, currency: Currency, requestKey: string): Promise<ProcessorResult | Pending> {
    return this.#modify(() =>
      this.#api.ModificationsApi.captureAuthorisedPayment(
        reference,
        { merchantAccount: this.account.merchantAccount, amount: { value: amountCents, currency }, reference: requestKey },
        { idempotencyKey: requestKey },
      ),
    );
  }

  async refund(reference: string, amountCents: number, requestKey: string, currency?: Currency): Promise<RefundResult | Pending> {
    if (!currency) throw new Error('an Adyen refund needs its currency');
    return this.#modify(() =>
      this.#api.ModificationsApi.refundCapturedPayment(
        reference,
        { merchantAccount: this.account.merchantAccount, amount: { value: amountCents, currency }, reference: requestKey },
        { idempotencyKey: requestKey },
      ),
    );
  }

  /** Cancels what the authorization still holds (after partial captures, the rest). */
  async release(reference: string, _amountCents: number, requestKey: string): Promise<Pending | undefined> {
    const answered = await this.#modify(() =>
      this.#api.ModificationsApi.cancelAuthorisedPaymentByPspReference(
        reference,
        { merchantAccount: this.account.merchantAccount, reference: requestKey },
        { idempotencyKey: requestKey },
      ),
    );
    if (answered.outcome === 'failed') throw new Error(`Adyen refused the cancel: ${answered.reason}`);
    return answered;
  }

  /**
   * Undoes the payment made with `requestKey`: an approved one by a reversal on its pspReference (a cancel, or a
   * refund once captured); one whose answer never came by a cancel with its own reference (Adyen's technical cancel),
   * which also refuses it should it arrive later; one declined or refused has nothing to undo. The key is refused from
   * then on. A payment this process does not know (made before a restart, or by another instance) is reversed on
   * `reference` when the service gives it (a 3-D Secure payment's, the pspReference its authentication kept: a
   * reversal cancels or refunds whatever the bank's step made of it). Without one, Adyen finds no payment by an
   * idempotency key, so it cannot be told from one that never reached Adyen: it throws, the request stays in flight
   * and ends as `needs_review`, for an operator to settle in Adyen's Customer Area (docs/operating.md#adyen).
   */
  async reverse(requestKey: string, reference?: string): Promise<void> {
    this.#remember(this.#reversed, requestKey);
    const payment = this.#payments.get(requestKey);
    const idempotencyKey = `${requestKey}-reversal`;
    if (!payment) {
      if (this.#undone.has(requestKey)) return;
      if (reference) {
        await this.#api.ModificationsApi.refundOrCancelPayment(
          reference,
          { merchantAccount: this.account.merchantAccount, reference: requestKey },
          { idempotencyKey },
        );
        return;
      }
      throw new Error(
        'the Adyen connector cannot reverse a payment this process did not make (Adyen finds none by its idempotency key): check its transaction number in the Customer Area',
      );
    }
    if (payment.pspReference) {
      await this.#api.ModificationsApi.refundOrCancelPayment(
        payment.pspReference,
        { merchantAccount: this.account.merchantAccount, reference: requestKey },
        { idempotencyKey },
      );
      return;
    }
    await this.#api.ModificationsApi.cancelAuthorisedPayment(
      { merchantAccount: this.account.merchantAccount, paymentReference: payment.reference, reference: requestKey },
      { idempotencyKey },
    );
  }

  async #pay(
    method: PaymentMethodInput,
    amountCents: number,
    currency: Currency,
    requestKey: string,
    details: PaymentDetails,
    capture: Pick<PaymentRequest, 'captureDelayHours' | 'additionalData'>,
  ): Promise<PaymentResult> {
    if (this.#reversed.has(requestKey)) return REVERSED;
    if (method.method !== 'card') return { outcome: 'failed', processor: PROCESSOR, reason: `the Adyen connector takes cards only, not ${method.method}` };
    const { card } = method;
    const number = card.number.replace(/[\s-]/g, '');
    const request: PaymentRequest = {
      merchantAccount: this.account.merchantAccount,
      reference: details.transactionNumber,
      amount: { value: amountCents, currency },
      paymentMethod: {
        type: 'scheme',
        number,
        expiryMonth: String(card.expMonth).padStart(2, '0'),
        expiryYear: String(card.expYear),
        cvc: card.cvc,
      } as PaymentRequest['paymentMethod'],
      shopperInteraction: 'Ecommerce' as PaymentRequest['shopperInteraction'],
      // The bank's step as a redirect to its page (a service page cannot run Adyen's native 3-D Secure component).
      authenticationData: { threeDSRequestData: { nativeThreeDS: 'disabled' as Types.checkout.ThreeDSRequestData.NativeThreeDSEnum } },
      returnUrl: authenticationReturnUrl(this.account.returnUrl, requestKey),
      ...capture,
      ...(details.installments > 1 ? { installments: { value: details.installments } } : {}),
    };
    this.#remember(this.#payments, requestKey, { reference: details.transactionNumber, pspReference: null });
    let response: PaymentResponse;
    try {
      response = await this.#api.PaymentsApi.payments(request, { idempotencyKey: requestKey });
    } catch (error) {
      const refused = refusedRequest(error);
      if (!refused) throw error;
      this.#holdsNothing(requestKey);
      return refused;
    }
    const named: CardName = { paymentMethodName: cardBrand(number), lastFourDigits: number.slice(-4) };
    const result = paymentResult(response, named);
    // A decline holds nothing: its reversal has nothing to undo. One waiting for the bank is cancelled by its reference.
    if (result.outcome === 'approved') this.#payments.set(requestKey, { reference: details.transactionNumber, pspReference: result.reference });
    else if (result.outcome === 'requires_action') this.#payments.set(requestKey, { reference: details.transactionNumber, pspReference: null, card: named });
    else this.#holdsNothing(requestKey);
    return result;
  }

  /** A modification: Adyen answers `received` with the modification's own pspReference, and the outcome comes by webhook. */
  async #modify(call: () => Promise<{ pspReference: string; status: string }>): Promise<Pending | (ProcessorResult & { outcome: 'failed' })> {
    let answer: { pspReference: string; status: string };
    try {
      answer = await call();
    } catch (error) {
      const refused = refusedRequest(error);
      if (refused) return refused;
      throw error;
    }
    if (answer.status !== 'received' || !answer.pspReference) throw new Error(`Adyen answered a modification with status ${answer.status}`);
    return { outcome: 'pending', processor: PROCESSOR, reference: answer.pspReference };
  }

  #holdsNothing(requestKey: string): void {
    this.#payments.delete(requestKey);
    this.#remember(this.#undone, requestKey);
  }

  #remember<V>(kept: Map<string, V> | Set<string>, key: string, value?: V): void {
    if (kept instanceof Map) kept.set(key, value as V);
    else kept.add(key);
    if (kept.size > KEPT_KEYS) kept.delete(kept.keys().next().value!);
  }
}

/**
 * A payment's answer (of `/payments` or `/payments/details`) as the port's result. `Authorised` approves; `Refused`
 * declines with the service's code for its `refusalReasonCode` (kept as `processorCode`); `Error` and `Cancelled` are
 * failures Adyen reported. `RedirectShopper` with a page the shopper can be sent to (a GET redirect) asks for the bank;
 * a 3-D Secure action the service cannot show (a form to post, Adyen's native `IdentifyShopper`/`ChallengeShopper`)
 * is declined `authentication_failed`. Anything else (`Received`, `Pending`, a partial authorisation the connector never
 * asks for) is no answer the service can record: it throws, and the payment is reversed.
 */
function paymentResult(response: PaymentResponse | PaymentDetailsResponse, card: CardName): PaymentResult {
  const resultCode = String(response.resultCode);
  switch (resultCode) {
    case 'Authorised': {
      if (!response.pspReference) throw new Error('Adyen authorised a payment without a pspReference');
      const approval: Approval = {
        outcome: 'approved',
        processor: PROCESSOR,
        reference: response.pspReference,
        authNumber: response.additionalData?.['authCode'] || response.pspReference.slice(-6),
        supportsCloseAuth: true,
        ...card,
      };
      return approval;
    }
    case 'Refused': {
      const processorCode = response.refusalReasonCode ?? undefined;
      return { outcome: 'declined', processor: PROCESSOR, code: adyenDeclineCode(processorCode), ...(processorCode ? { processorCode } : {}) };
    }
    case 'RedirectShopper': {
      const actionUrl = 'action' in response ? bankPageOf(response.action) : null;
      if (!actionUrl) return { outcome: 'declined', processor: PROCESSOR, code: 'authentication_failed', processorCode: resultCode };
      // The payment's own reference where Adyen gives no pspReference before the bank has answered.
      const reference = response.pspReference || response.merchantReference;
      if (!reference) throw new Error('Adyen sent the shopper to the bank without naming the payment');
      const waiting: ActionRequired = { outcome: 'requires_action', processor: PROCESSOR, reference, actionUrl };
      return waiting;
    }
    case 'IdentifyShopper':
    case 'ChallengeShopper':
      return { outcome: 'declined', processor: PROCESSOR, code: 'authentication_failed', processorCode: resultCode };
    case 'Error':
    case 'Cancelled':
      return { outcome: 'failed', processor: PROCESSOR, reason: `Adyen ${resultCode}${response.refusalReason ? `: ${response.refusalReason}` : ''}` };
    default:
      throw new Error(`Adyen answered the payment with resultCode ${resultCode}, which is no final answer`);
  }
}

/**
 * A request Adyen refused as it stands (400 validation, 401/403 security, 422 unprocessable): nothing was done with
 * it, so it is a failure Adyen reported. A 5xx, a network error or an unreadable answer is no answer: null, rethrown.
 */
function refusedRequest(error: unknown): (ProcessorResult & { outcome: 'failed' }) | null {
  if (!(error instanceof adyen.HttpClientException)) return null;
  if (![400, 401, 403, 404, 422].includes(error.statusCode)) return null;
  const apiError = error.apiError;
  const what = apiError ? `${apiError.errorCode ?? ''} ${apiError.message ?? ''}`.trim() : 'request refused';
  return { outcome: 'failed', processor: PROCESSOR, reason: `Adyen ${error.statusCode}: ${what}` };
}
