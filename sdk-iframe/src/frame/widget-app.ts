/**
 * The widget page: served by the service at {apiBase}/sdk/iframe/1.0.9/widget.html?clientId=…&origin=…#instance=…,
 * framed only by `origin` (the server checked it against the client ID). It runs sdk-core's SDK core (the option
 * checks, the messages, the payments, the debug log's lines) for the facade in the merchant page, and the whole payment
 * widget of the iframe SDK under it: the method choice, sdk-core's card form, the wallets and the messages. It starts
 * its own session and pays itself; the merchant page gets only the core's events, sizes and the transaction
 * (protocol/src/iframe-messages.ts).
 */
import type { PaymentMethodName, SdkError, SdkMethodType, SdkPayOptions, Transaction } from '@svc/protocol';
import { PAYMENT_METHODS, type ProblemInfo } from '@svc/protocol/light';
import {
  applyCardFormStyles,
  instanceIdFrom,
  mountCardForm,
  observeSize,
  parentOriginFrom,
  submitCardForm,
  type CardForm,
  type CardValidation,
} from '@svc/sdk-core/frame';
import {
  createSdkCore,
  payOptionsFrom,
  payWithWallet,
  SessionController,
  type PaymentFields,
  type SessionState,
  type WidgetAdapter,
  type WidgetConfig,
  type WidgetEvents,
  type WidgetHandle,
} from '@svc/sdk-core/host';
import { debugLog, SdkErrorException, sessionError } from '@svc/sdk-core/shared';
import { widgetEnd } from './widget-channel';
import { applyWidgetStyles } from './widget-styles';
import { WidgetView, type WidgetPhase } from './widget-view';

type Outcome = { ok: true; transaction: Transaction } | { ok: false; error: SdkError };

export function startWidget(win: Window): void {
  const doc = win.document;
  applyCardFormStyles(doc);
  applyWidgetStyles(doc);
  const parentOrigin = parentOriginFrom(win.location.search);
  const instanceId = instanceIdFrom(win.location.hash);
  if (!parentOrigin || !instanceId || win.parent === win) {
    console.error('[svc-iframe-widget] widget-not-embedded: this page is shown only by the iframe SDK (it needs ?origin=… and #instance=…).');
    for (const input of doc.querySelectorAll('input, button')) (input as HTMLInputElement).disabled = true;
    return;
  }
  const clientId = new URLSearchParams(win.location.search).get('clientId') ?? '';
  const refusal = doc.querySelector('meta[name="svc-widget-refusal"]')?.getAttribute('content');
  // Served instead of the form: every widget reports why, as Elements reports the same refusal of its session.
  const refused = refusal ? refusedWidget(sessionError(refusalProblem(refusal), clientId, parentOrigin)) : null;
  const adapter: WidgetAdapter = { mount: (_container, config, events) => refused?.(events) ?? new Widget(win, config, events, parentOrigin) };
  const channel = widgetEnd(win, {
    peerOrigin: parentOrigin,
    peerWindow: () => win.parent,
    instanceId,
    onMessage: (call) => {
      if (call.type !== 'init') core.handle(call);
      else if (!core.init(doc.body, call.container)) channel.send({ type: 'unmounted' });
    },
  });
  const core = createSdkCore({ apiBase: win.location.origin, adapter, emit: (event) => channel.send(event) });
  channel.open();
  channel.send({ type: 'ready' });
  if (!refused) observeSize(doc, (height, width) => channel.send({ type: 'size', height, width }));
}

function refusalProblem(code: string): ProblemInfo {
  return code === 'origin_not_allowed'
    ? { status: 403, code: 'origin_not_allowed', detail: null, paths: [], requestId: null }
    : { status: 401, code: 'unauthorized', detail: null, paths: [], requestId: null };
}

/** The widget of a refused page: it reports the refusal when mounted, and again for every payment. */
function refusedWidget(error: SdkError) {
  return (events: WidgetEvents): WidgetHandle => {
    events.error(error);
    return {
      configure: () => undefined,
      pay: () => {
        events.error(error);
        return Promise.reject(new SdkErrorException(error));
      },
      destroy: () => undefined,
    };
  };
}

/** The payment widget of this page, mounted by the core (sdk-core's WidgetHandle, as Elements' element is). */
class Widget implements WidgetHandle {
  #mode: 'sandbox' | 'production';
  #methodType: SdkMethodType;
  #debug: boolean;
  #sessionKey = '';
  #selected: PaymentMethodName | null = null;
  #paying = false;
  #transaction: Transaction | null = null;
  #error: SdkError | null = null;
  #lastValidation = '';
  readonly #apiBase: string;
  readonly #clientId: string;
  readonly #view: WidgetView;
  readonly #form: CardForm;
  readonly #session: SessionController;

  constructor(
    win: Window,
    config: WidgetConfig,
    private readonly events: WidgetEvents,
    private readonly embeddingOrigin: string,
  ) {
    const doc = win.document;
    ({ mode: this.#mode, methodType: this.#methodType, debug: this.#debug } = config);
    this.#apiBase = config.apiBase;
    this.#clientId = config.clientId;
    this.#view = new WidgetView(
      doc,
      (method) => this.#select(method),
      () => this.#startSession(true),
    );
    this.#session = new SessionController({ addController: () => undefined, requestUpdate: () => this.#render() }, (state) => this.#onSession(state));
    this.#form = mountCardForm(doc.getElementById('card')!, { onChange: (validation) => this.#onCardChange(validation) });
    this.#render();
    this.#log('configure', { mode: this.#mode, methodType: this.#methodType });
    this.#startSession(false);
  }

  /** The client ID is the page's (another one loads another page); a change of mode or methodType starts a new session. */
  configure({ mode, methodType, debug }: WidgetConfig): void {
    this.#mode = mode;
    this.#methodType = methodType;
    this.#debug = debug;
    this.#log('configure', { mode, methodType });
    this.#startSession(false);
  }

  pay(options?: SdkPayOptions): Promise<Transaction> {
    const payment = payOptionsFrom(options, this.#methodType);
    if (!payment.ok) return this.#refuse(payment.error);
    if (this.#paying) {
      return this.#refuse({
        code: 'payment_in_progress',
        message: 'A payment is already in progress. Wait for its result (the pay callback or an error) before paying again.',
      });
    }
    if (this.#transaction) {
      const done = `This payment form already completed a payment (transaction ${this.#transaction.TransactionNumber}); commit it from your backend. For another payment call ServiceFrontEndSDK.init() again.`;
      return this.#refuse({ code: 'payment_in_progress', message: done });
    }
    this.#setPaying(true);
    return this.#run(payment.value);
  }

  /** The frame goes with the widget; nothing outlives it. */
  destroy(): void {}

  #methods(): PaymentMethodName[] {
    const state = this.#session.state;
    return state.status === 'ready' ? PAYMENT_METHODS.filter((method) => state.session.paymentMethods.includes(method)) : [];
  }

  #phase(): WidgetPhase {
    if (this.#paying) return 'paying';
    if (this.#transaction) return 'success';
    const { status } = this.#session.state;
    return status === 'ready' ? 'ready' : status === 'error' ? 'error' : 'loading';
  }

  #render(): void {
    this.#view.render({
      phase: this.#phase(),
      methods: this.#methods(),
      selected: this.#selected,
      error: this.#error?.message ?? '',
      retry: this.#session.state.status === 'error' && !this.#paying,
      sandbox: this.#mode === 'sandbox',
    });
  }

  /** A new session when mode or methodType change (or the customer asks to try again). */
  #startSession(force: boolean): void {
    const key = `${this.#mode}|${this.#methodType}`;
    if (!force && key === this.#sessionKey) return;
    this.#sessionKey = key;
    this.#error = null;
    void this.#session.start({
      apiBase: this.#apiBase,
      clientId: this.#clientId,
      mode: this.#mode,
      methodType: this.#methodType,
      embeddingOrigin: this.embeddingOrigin,
    });
  }

  #onSession(state: SessionState): void {
    if (state.status === 'error') {
      this.#log('session failed', state.error);
      this.#error = state.error;
      this.#render();
      this.events.error(state.error);
      return;
    }
    if (state.status !== 'ready') return;
    const methods = this.#methods();
    this.#log('session ready', { sessionId: state.session.sessionId, paymentMethods: methods });
    this.events.ready({ paymentMethods: methods });
    if (methods.length === 0) {
      this.#error = { code: 'config_invalid', message: 'No payment method is enabled for this client ID. Enable card or a wallet for it.' };
      this.events.error(this.#error);
    } else if (!this.#selected || !methods.includes(this.#selected)) {
      this.#select(methods[0]!);
    }
    this.#render();
  }

  #select(method: PaymentMethodName): void {
    this.#selected = method;
    this.#error = null;
    this.#render();
    this.#log('payment method selected', { paymentMethod: method });
    this.events.paymentSelected({ paymentMethod: method });
    this.#lastValidation = '';
    this.#sendValidation(method === 'card' ? this.#form.validation() : { isValid: true, errors: [] });
  }

  #onCardChange(validation: CardValidation): void {
    if (this.#selected === 'card') this.#sendValidation(validation);
  }

  /** Field names and generic messages only: card data never goes into a message. */
  #sendValidation({ isValid, errors }: { isValid: boolean; errors: CardValidation['errors'] }): void {
    const key = JSON.stringify({ isValid, errors });
    if (key === this.#lastValidation) return;
    this.#lastValidation = key;
    this.events.validationStatus({ isValid, errors: errors.map(({ field, message }) => ({ field, message })) });
  }

  /** Ends a payment as Elements does: its outcome event, then paying(false), then the promise. */
  async #run(payment: PaymentFields): Promise<Transaction> {
    let outcome: Outcome;
    try {
      outcome = await this.#attempt(payment);
    } catch (error) {
      // Not a refusal of the service (those are outcomes): a defect of ours, reported as one.
      console.error('[svc-iframe-widget] payment failed', error);
      outcome = {
        ok: false,
        error: { code: 'internal_error', message: 'The payment failed unexpectedly. Try again; if it keeps failing, please report it to the payment service.' },
      };
    }
    if (outcome.ok) {
      this.#transaction = outcome.transaction;
      this.#error = null;
      this.#log('payment accepted', { transactionNumber: outcome.transaction.TransactionNumber, status: outcome.transaction.status });
      this.events.paymentSuccess({ transaction: outcome.transaction });
      this.#setPaying(false);
      return outcome.transaction;
    }
    this.#error = outcome.error;
    this.#log('payment failed', outcome.error.code);
    if (outcome.error.code === 'session_expired') this.#startSession(true);
    this.events.error(outcome.error);
    this.#setPaying(false);
    throw new SdkErrorException(outcome.error);
  }

  #refuse(error: SdkError): Promise<never> {
    this.events.error(error);
    return Promise.reject(new SdkErrorException(error));
  }

  async #attempt({ amount, currency, billingAddress }: PaymentFields): Promise<Outcome> {
    const state = await this.#session.settled();
    if (state.status === 'error') return { ok: false, error: state.error };
    if (state.status !== 'ready')
      return {
        ok: false,
        error: { code: 'not_configured', message: 'The payment form has not started yet. Call ServiceFrontEndSDK.config() and init() before pay().' },
      };
    const method = this.#selected ?? 'card';
    // The billing address goes into the payment request only, never into a log line.
    this.#log('pay', { method, amount, currency });
    const payment = { amount, currency, billingAddress };
    if (method === 'card') {
      const session = { sessionId: state.session.sessionId, sessionToken: state.session.sessionToken, apiBase: this.#apiBase, debug: this.#debug };
      return submitCardForm(this.#form, session, payment);
    }
    const result = await payWithWallet(this.#apiBase, state.session, { method, ...payment }, new AbortController().signal);
    return result.ok ? { ok: true, transaction: result.value } : result;
  }

  #setPaying(paying: boolean): void {
    this.#paying = paying;
    if (paying) this.#error = null;
    this.#render();
    this.events.paying({ isPaying: paying });
  }

  #log(event: string, detail?: unknown): void {
    if (this.#debug) debugLog('svc-iframe-widget', event, detail);
  }
}
