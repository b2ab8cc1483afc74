/**
 * The behaviour every payment widget shares (Elements' `<svc-ecom-sdk-elements>` and the iframe SDK's widget page): its
 * session, the method choice, the card fields' status, the pay guards, the paying state and the errors. One plain class
 * holds that state; each widget plugs it in with a `WidgetHost` (draw the state, send its events, pay by card with its
 * own card fields) and draws what `phase`, `methods`, `selected` and `error` say. No Lit here: the host may be a
 * LitElement (`addController` makes this a reactive controller) or any small object. The suite in
 * testing/widget-behaviour.ts runs against both widgets.
 *
 * `pay()` checks, in this order, and reports the first that fails through `events.error` (no payment starts, so no
 * `paying` event):
 *   1. already paying, or a payment already completed → `payment_in_progress`;
 *   2. the pay options (amount in cents, currency, billing address) → `invalid_amount` / `config_invalid`;
 *   3. readiness: the widget's own blocker (Elements: a bad attribute, not on the page), then the session's refusal
 *      (`client_id_unknown`, …); a session still loading means the shopper has not filled anything in yet →
 *      `fields_incomplete`;
 *   4. a payment method: none offered → `config_invalid`;
 *   5. the card fields as last reported, when the card is chosen: not valid (yet) → `fields_incomplete`, with their
 *      status reported again, never `invalid_card` (that is the service refusing a card it was sent).
 * Then it pays: the payment starts (its request sent), `paying` true in the same task, its outcome event
 * (`paymentSuccess` or `error`), `paying` false, and the promise. A wallet payment runs under an AbortController aborted by a new payment and by `disconnect()`.
 */
import type { PaymentMethodName, SdkError, SdkErrorCode, SdkPayOptions, SdkSession, Transaction } from '@svc/protocol';
import { PAYMENT_METHODS } from '@svc/protocol/light';
import type { EN_WIDGET } from '../shared/i18n/en';
import { SdkErrorException } from '../shared/sdk-errors';
import { debugLog } from '../shared/warnings';
import type { CardFieldError, WidgetEvents } from './adapter';
import { payWithWallet } from './api-client';
import { deviceWalletsOffered } from './device-wallets';
import { payOptionsFrom, type PaymentFields } from './pay-options';
import { SessionController, type SessionParams, type SessionState } from './session-controller';

export type WidgetPhase = 'loading' | 'ready' | 'paying' | 'success' | 'error';
export type WidgetTextKey = keyof typeof EN_WIDGET;

/** What a widget's status line (its polite live region) says in each phase: a key of the widget's catalogue, or nothing. */
export const PHASE_STATUS_KEY: Readonly<Record<WidgetPhase, WidgetTextKey | null>> = {
  loading: 'widget.loading',
  ready: null,
  paying: 'widget.paying',
  success: 'widget.accepted',
  error: null,
};

/** The errors a shopper can act on, and what the widget's alert tells them (in the widget's language). */
const SHOPPER_ERRORS: Partial<Record<SdkErrorCode, WidgetTextKey>> = {
  card_declined: 'error.card_declined',
  insufficient_funds: 'error.insufficient_funds',
  invalid_card: 'error.invalid_card',
  processor_failure: 'error.processor_failure',
  network_error: 'error.network_error',
  session_expired: 'error.session_expired',
  payment_cancelled: 'error.payment_cancelled',
  authentication_failed: 'error.authentication_failed',
  fields_incomplete: 'error.fields_incomplete',
};

/**
 * The catalogue key of an error a shopper can act on (what the `error` event says of it); null for any other error,
 * whose message is the merchant's developer's (English, for the `error` callback and the debug log).
 */
export function shopperErrorKey(code: SdkErrorCode): WidgetTextKey | null {
  return SHOPPER_ERRORS[code] ?? null;
}

/**
 * What the widget's alert says of an error, in the widget's language, never the developer's message: what the
 * shopper can act on, that something went wrong (a failure of the SDK or the service), or that payment is not
 * available (a mistake of the integration, a refusal of the service, a widget that cannot start).
 */
export function alertKey(code: SdkErrorCode): WidgetTextKey {
  return SHOPPER_ERRORS[code] ?? (code === 'internal_error' ? 'error.unexpected' : 'error.unavailable');
}

export type PaymentOutcome = { ok: true; transaction: Transaction } | { ok: false; error: SdkError };

export interface FieldsStatus {
  isValid: boolean;
  errors: CardFieldError[];
}

/** What a widget gives its controller. */
export interface WidgetHost {
  /** Lit's `ReactiveControllerHost.addController` fits: the controller then hears `hostDisconnected`. */
  addController?(controller: { hostDisconnected?(): void }): void;
  /** The state changed: draw it again. */
  requestUpdate(): void;
  /** Where the controller reports what happens, in order (Elements dispatches its `svc-*` events; the iframe widget relays). */
  readonly events: Omit<WidgetEvents, 'dimensions'>;
  /** What keeps this widget from paying whatever its session says (Elements: a bad attribute, not on the page), or null. */
  blocker?(): SdkError | null;
  /** The session is loaded (Elements hands it to its card frame). */
  sessionReady?(session: SdkSession): void;
  /**
   * The widget's text for `key` in its language: what the `error` event says of an error the shopper can act on (its
   * stable code stays; the developer's advice goes to the debug log). Without it the event carries the advice.
   */
  shopperText?(key: WidgetTextKey): string;
  /** Pays by card with what the shopper typed in the widget's own card fields (never card data through here). */
  payByCard(session: SdkSession, payment: PaymentFields): Promise<PaymentOutcome>;
}

export interface WidgetControllerOptions {
  /** The debug log's prefix (`svc-ecom-sdk-elements`, `svc-iframe-widget`). */
  name: string;
  /** Whether the debug log is on now. */
  debug: () => boolean;
}

const NO_METHOD: SdkError = { code: 'config_invalid', message: 'No payment method is enabled for this client ID. Enable card or a wallet for it.' };
const IN_PROGRESS: SdkError = {
  code: 'payment_in_progress',
  message: 'A payment is already in progress. Wait for its result (the pay callback or an error) before paying again.',
};
const REMOVED: SdkError = { code: 'frame_unavailable', message: 'The widget was removed from the page during the payment.' };
const UNEXPECTED: SdkError = {
  code: 'internal_error',
  message: 'The payment failed unexpectedly. Try again; if it keeps failing, please report it to the payment service.',
};
const WAIT_FOR_THE_SHOPPER = 'pay() waits for the shopper: call it from your pay button once paymentMethodValidationStatus reports isValid: true.';

export class WidgetController {
  /** The chosen payment method, once the session is loaded. */
  selected: PaymentMethodName | null = null;
  /** The last error, for the widget's alert (`alertKey`); cleared when a payment starts or the shopper chooses again. */
  error: SdkError | null = null;
  /** The payment this widget completed (it pays once). */
  transaction: Transaction | null = null;
  #paying = false;
  #fields: FieldsStatus = { isValid: false, errors: [] };
  #lastStatus = '';
  #params: SessionParams | null = null;
  #payment: AbortController | null = null;
  /** The merchant's choice of methods (`config({ paymentMethods })`), or null: all the session offers. */
  #allowed: readonly PaymentMethodName[] | null = null;
  /** Production: the device wallets this browser offers, once asked (null: not known yet). */
  #devices: Set<PaymentMethodName> | null = null;
  #asking: Promise<void> | null = null;
  readonly #session: SessionController;

  constructor(
    private readonly host: WidgetHost,
    private readonly options: WidgetControllerOptions,
  ) {
    this.#session = new SessionController(
      { addController: (controller) => host.addController?.(controller), requestUpdate: () => host.requestUpdate() },
      (state) => this.#onSession(state),
    );
    host.addController?.(this);
  }

  get paying(): boolean {
    return this.#paying;
  }

  get session(): SessionState {
    return this.#session.state;
  }

  /** loading → ready → paying → success; `error` when the session was refused. */
  get phase(): WidgetPhase {
    if (this.#paying) return 'paying';
    if (this.transaction) return 'success';
    const { status } = this.#session.state;
    return status === 'ready' ? 'ready' : status === 'error' ? 'error' : 'loading';
  }

  /**
   * The methods shown, in the widget's order: those the session offers, of those the merchant chose; in production a
   * device wallet only where this browser offers it.
   */
  get methods(): PaymentMethodName[] {
    const state = this.#session.state;
    if (state.status !== 'ready' || (this.#params?.mode === 'production' && !this.#devices)) return [];
    const production = this.#params?.mode === 'production';
    return PAYMENT_METHODS.filter(
      (method) =>
        state.session.paymentMethods.includes(method) &&
        (!this.#allowed || this.#allowed.includes(method)) &&
        (!production || (method !== 'applepay' && method !== 'googlepay') || this.#devices!.has(method)),
    );
  }

  /** `config({ paymentMethods })`: the methods to offer (null: all the session offers). A method no longer offered is unchosen. */
  allowMethods(methods: readonly PaymentMethodName[] | null | undefined): void {
    const next = methods ? [...methods] : null;
    if (JSON.stringify(next) === JSON.stringify(this.#allowed)) return;
    this.#allowed = next;
    if (this.#session.state.status === 'ready') this.#chooseOffered();
    this.host.requestUpdate();
  }

  /** Loads a session (a new one: the previous load is dropped). */
  startSession(params: SessionParams): void {
    this.#params = params;
    this.error = null;
    void this.#session.start(params);
  }

  /** A new session with the same parameters (after `session_expired`, or when the shopper tries again). */
  renewSession(): void {
    this.#session.clear();
    if (this.#params) this.startSession(this.#params);
  }

  /** Back to a fresh widget after a payment, with a new session. */
  reset(): void {
    this.transaction = null;
    this.renewSession();
  }

  /** The shopper chose a method: it is reported, and so is whether it can be paid with now. */
  select(method: PaymentMethodName): void {
    this.selected = method;
    this.error = null;
    this.host.requestUpdate();
    this.log('payment method selected', { paymentMethod: method });
    this.host.events.paymentSelected({ paymentMethod: method });
    this.#reportStatus(true);
  }

  /** The card fields' status changed (field names and generic messages: no card data). */
  fieldsChanged(status: FieldsStatus): void {
    this.#fields = { isValid: status.isValid, errors: status.errors.map(({ field, message }) => ({ field, message })) };
    if (this.selected === 'card') this.#reportStatus(false);
  }

  /**
   * Reports `error` as the widget's and returns the exception a payment rejects with. The debug log gets the error as
   * it came (its message is advice for the developer); the `error` event and the rejection carry, for an error the
   * shopper can act on, its code with the shopper's text in the widget's language, as the alert shows it.
   */
  report(error: SdkError): SdkErrorException {
    // A second payment refused while one runs or after it completed leaves the alert as it is: the shopper sees that
    // payment's progress or outcome, not an error.
    if (error.code !== 'payment_in_progress') this.error = error;
    this.host.requestUpdate();
    this.log('error', error);
    const key = shopperErrorKey(error.code);
    const told = key && this.host.shopperText ? { code: error.code, message: this.host.shopperText(key) } : error;
    this.host.events.error(told);
    return new SdkErrorException(told);
  }

  /** Pays with the chosen method after the guards (see the top of this file). */
  pay(options?: SdkPayOptions): Promise<Transaction> {
    const checked = this.#guard(options);
    if (!checked.ok) return Promise.reject(this.report(checked.error));
    return this.#run(checked.session, checked.payment);
  }

  /** The widget left the page: a session load and a wallet payment in flight are dropped. */
  disconnect(): void {
    this.#payment?.abort();
    if (this.#session.state.status === 'loading') this.#session.clear();
  }

  hostDisconnected(): void {
    this.disconnect();
  }

  /** The guards, in their order: the first that fails, or what the payment pays with. */
  #guard(options: SdkPayOptions | undefined): { ok: true; session: SdkSession; payment: PaymentFields } | { ok: false; error: SdkError } {
    const refuse = (error: SdkError) => ({ ok: false, error }) as const;
    if (this.#paying) return refuse(IN_PROGRESS);
    if (this.transaction) {
      return refuse({
        code: 'payment_in_progress',
        message: `This widget already completed a payment (transaction ${this.transaction.TransactionNumber}); commit it from your backend. For another payment call ServiceFrontEndSDK.init() again (or reset() on <svc-ecom-sdk-elements>).`,
      });
    }
    const payment = payOptionsFrom(options, this.#params?.methodType ?? 'manual_capture');
    if (!payment.ok) return refuse(payment.error);
    const blocker = this.host.blocker?.();
    if (blocker) return refuse(blocker);
    const state = this.#session.state;
    if (state.status === 'error') return refuse(state.error);
    if (state.status !== 'ready') {
      return refuse({ code: 'fields_incomplete', message: `The payment form is still loading; nothing is filled in yet. ${WAIT_FOR_THE_SHOPPER}` });
    }
    if (!this.selected || !this.methods.includes(this.selected)) return refuse(NO_METHOD);
    if (this.selected === 'card' && !this.#fields.isValid) {
      this.#reportStatus(true);
      const first = this.#fields.errors[0]?.message;
      return refuse({ code: 'fields_incomplete', message: `The card details are not complete yet${first ? ` (${first})` : ''}. ${WAIT_FOR_THE_SHOPPER}` });
    }
    return { ok: true, session: state.session, payment: payment.value };
  }

  async #run(session: SdkSession, payment: PaymentFields): Promise<Transaction> {
    const method = this.selected!;
    // Marked before the request goes out, drawn and announced (#setPaying) after it: a second pay() meanwhile is refused.
    this.#paying = true;
    // The billing address goes into the payment request only, never into a log line.
    this.log('pay', { method, amount: payment.amount, currency: payment.currency });
    // The payment starts first (the request, or the message to the card frame, goes out before this returns); the
    // paying state is drawn and announced after it, in the same task, so neither the redraw nor the `paying` event's
    // listeners delay the request. A guard above already refuses a second payment from those listeners.
    const running = (async () => (method === 'card' ? this.host.payByCard(session, payment) : this.#payWithWallet(session, method, payment)))();
    this.#setPaying(true);
    let outcome: PaymentOutcome;
    try {
      outcome = await running;
    } catch (error) {
      // Not a refusal of the service (those are outcomes): a defect of ours, reported as one.
      console.error(`[${this.options.name}] payment failed`, error);
      outcome = { ok: false, error: UNEXPECTED };
    }
    if (outcome.ok) {
      this.transaction = outcome.transaction;
      this.error = null;
      this.log('payment accepted', { transactionNumber: outcome.transaction.TransactionNumber, status: outcome.transaction.status });
      this.host.events.paymentSuccess({ transaction: outcome.transaction });
      this.#setPaying(false);
      return outcome.transaction;
    }
    if (outcome.error.code === 'session_expired') this.renewSession();
    const failure = this.report(outcome.error);
    this.#setPaying(false);
    throw failure;
  }

  async #payWithWallet(session: SdkSession, method: Exclude<PaymentMethodName, 'card'>, payment: PaymentFields): Promise<PaymentOutcome> {
    this.#payment?.abort();
    const abort = new AbortController();
    this.#payment = abort;
    try {
      const result = await payWithWallet(this.#params!.apiBase, session, { method, ...payment }, abort.signal);
      if (abort.signal.aborted) return { ok: false, error: REMOVED };
      return result.ok ? { ok: true, transaction: result.value } : result;
    } catch (error) {
      if (abort.signal.aborted) return { ok: false, error: REMOVED };
      throw error;
    } finally {
      if (this.#payment === abort) this.#payment = null;
    }
  }

  #onSession(state: SessionState): void {
    if (state.status === 'error') {
      this.log('session failed', state.error);
      this.report(state.error);
      return;
    }
    if (state.status !== 'ready') return;
    if (this.#params?.mode === 'production' && !this.#devices) {
      // Asked once per widget; the session is announced when the browser has answered (unless a newer one came).
      this.#asking ??= deviceWalletsOffered().then((offered) => void (this.#devices = offered));
      void this.#asking.then(() => this.#session.state === state && this.#onSession(state));
      return;
    }
    const methods = this.methods;
    this.log('session ready', { sessionId: state.session.sessionId, paymentMethods: methods });
    this.host.sessionReady?.(state.session);
    this.host.events.ready({ paymentMethods: methods });
    this.#chooseOffered();
    this.host.requestUpdate();
  }

  /** The chosen method stays if it is still offered; else the first one is chosen (none: config_invalid). */
  #chooseOffered(): void {
    const methods = this.methods;
    if (methods.length === 0) this.report(NO_METHOD);
    else if (!this.selected || !methods.includes(this.selected)) this.select(methods[0]!);
  }

  /** Whether the chosen method can be paid with now: the card fields' status, a wallet always. Unchanged: not again, unless `force`. */
  #reportStatus(force: boolean): void {
    const status = this.selected === 'card' ? this.#fields : { isValid: true, errors: [] };
    const key = JSON.stringify(status);
    if (!force && key === this.#lastStatus) return;
    this.#lastStatus = key;
    this.host.events.validationStatus({ isValid: status.isValid, errors: [...status.errors] });
  }

  #setPaying(paying: boolean): void {
    this.#paying = paying;
    if (paying) this.error = null;
    this.host.requestUpdate();
    this.host.events.paying({ isPaying: paying });
  }

  /** A line of the widget's debug log (when debug is on): never card data nor the billing address. */
  log(event: string, detail?: unknown): void {
    if (this.options.debug()) debugLog(this.options.name, event, detail);
  }
}
