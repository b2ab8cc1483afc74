/**
 * The widget page: served by the service at {apiBase}/sdk/iframe/1.0.9/widget.html?clientId=…&origin=…#instance=…,
 * framed only by `origin` (the server checked it against the client ID). It is the whole payment widget of the iframe
 * SDK: the method choice, sdk-core's card form, the wallets and the messages. It starts its own session and pays
 * itself; the merchant page gets only events, sizes and the transaction (protocol/src/iframe-messages.ts).
 */
import type { LoaderToWidgetMessage, PaymentMethodName, SdkError, SdkMethodType, Transaction } from '@svc/protocol';
import { PAYMENT_METHODS, type ProblemInfo } from '@svc/protocol/light';
import { applyCardFormStyles, instanceIdFrom, mountCardForm, observeSize, parentOriginFrom, submitCardForm, type CardForm, type CardValidation } from '@svc/sdk-core/frame';
import { payWithWallet, SessionController, type SessionState } from '@svc/sdk-core/host';
import { debugLog, SdkErrorException, sessionError } from '@svc/sdk-core/shared';
import { widgetEnd, type WidgetChannel } from './widget-channel';
import { applyWidgetStyles } from './widget-styles';
import { WidgetView, type WidgetPhase } from './widget-view';

type PayMessage = Extract<LoaderToWidgetMessage, { type: 'pay' }>;
type Outcome = { ok: true; transaction: Transaction } | { ok: false; error: SdkError };

export function startWidget(win: Window): void {
  const doc = win.document;
  applyCardFormStyles(doc);
  applyWidgetStyles(doc);
  const query = new URLSearchParams(win.location.search);
  const parentOrigin = parentOriginFrom(win.location.search);
  const instanceId = instanceIdFrom(win.location.hash);
  if (!parentOrigin || !instanceId || win.parent === win) {
    console.error('[svc-iframe-widget] widget-not-embedded: this page is shown only by the iframe SDK (it needs ?origin=… and #instance=…).');
    for (const input of doc.querySelectorAll('input, button')) (input as HTMLInputElement).disabled = true;
    return;
  }
  const clientId = query.get('clientId') ?? '';
  let widget: Widget | null = null;
  const channel = widgetEnd(win, { peerOrigin: parentOrigin, peerWindow: () => win.parent, instanceId, onMessage: (message) => widget?.handle(message) });
  const refusal = doc.querySelector('meta[name="svc-widget-refusal"]')?.getAttribute('content');
  if (refusal) {
    // Served instead of the form: tell the merchant page why, as Elements reports the same refusal of its session.
    const problem: ProblemInfo = refusal === 'origin_not_allowed' ? { status: 403, code: 'origin_not_allowed', detail: null, paths: [], requestId: null } : { status: 401, code: 'unauthorized', detail: null, paths: [], requestId: null };
    channel.send({ type: 'error', error: sessionError(problem, clientId, parentOrigin) });
    return;
  }
  widget = new Widget(win, channel, clientId, parentOrigin);
  channel.open();
  channel.send({ type: 'ready' });
  observeSize(doc, (height, width) => channel.send({ type: 'size', height, width }));
}

class Widget {
  #mode: 'sandbox' | 'production' = 'sandbox';
  #methodType: SdkMethodType = 'manual_capture';
  #debug = false;
  #sessionKey = '';
  #selected: PaymentMethodName | null = null;
  #paying = false;
  #transaction: Transaction | null = null;
  #error: SdkError | null = null;
  #lastValidation = '';
  readonly #apiBase: string;
  readonly #view: WidgetView;
  readonly #form: CardForm;
  readonly #session: SessionController;

  constructor(
    win: Window,
    private readonly channel: WidgetChannel,
    private readonly clientId: string,
    private readonly embeddingOrigin: string,
  ) {
    const doc = win.document;
    this.#apiBase = win.location.origin;
    this.#view = new WidgetView(doc, (method) => this.#select(method), () => this.#startSession(true));
    this.#session = new SessionController({ addController: () => undefined, requestUpdate: () => this.#render() }, (state) => this.#onSession(state));
    this.#form = mountCardForm(doc.getElementById('card')!, { onChange: (validation) => this.#onCardChange(validation) });
    this.#render();
  }

  handle(message: LoaderToWidgetMessage): void {
    if (message.type === 'configure') {
      this.#mode = message.mode;
      this.#methodType = message.methodType;
      this.#debug = message.debug;
      this.#log('configure', { mode: message.mode, methodType: message.methodType });
      this.#startSession(false);
      return;
    }
    void this.#pay(message);
  }

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
    void this.#session.start({ apiBase: this.#apiBase, clientId: this.clientId, mode: this.#mode, methodType: this.#methodType, embeddingOrigin: this.embeddingOrigin });
  }

  #onSession(state: SessionState): void {
    if (state.status === 'error') {
      this.#log('session failed', state.error);
      this.#error = state.error;
      this.#render();
      this.channel.send({ type: 'error', error: state.error });
      return;
    }
    if (state.status !== 'ready') return;
    const methods = this.#methods();
    this.#log('session ready', { sessionId: state.session.sessionId, paymentMethods: methods });
    this.channel.send({ type: 'loaded', paymentMethods: methods });
    if (methods.length === 0) {
      this.#error = { code: 'config_invalid', message: 'No payment method is enabled for this client ID. Enable card or a wallet for it.' };
      this.channel.send({ type: 'error', error: this.#error });
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
    this.channel.send({ type: 'paymentSelected', paymentMethod: method });
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
    this.channel.send({ type: 'validation', isValid, errors: errors.map(({ field, message }) => ({ field, message })) });
  }

  async #pay(message: PayMessage): Promise<void> {
    const { requestId } = message;
    const answer = (outcome: Outcome): void => {
      this.channel.send(outcome.ok ? { type: 'result', requestId, ok: true, transaction: outcome.transaction } : { type: 'result', requestId, ok: false, error: outcome.error });
    };
    if (this.#paying) {
      answer({ ok: false, error: { code: 'payment_in_progress', message: 'A payment is already in progress. Wait for its result (the pay callback or an error) before paying again.' } });
      return;
    }
    if (this.#transaction) {
      const done = `This payment form already completed a payment (transaction ${this.#transaction.TransactionNumber}); commit it from your backend. For another payment call ServiceFrontEndSDK.init() again.`;
      answer({ ok: false, error: { code: 'payment_in_progress', message: done } });
      return;
    }
    this.#setPaying(true);
    try {
      const outcome = await this.#attempt(message);
      if (outcome.ok) {
        this.#transaction = outcome.transaction;
        this.#error = null;
        this.#log('payment accepted', { transactionNumber: outcome.transaction.TransactionNumber, status: outcome.transaction.status });
      } else {
        this.#error = outcome.error;
        this.#log('payment failed', outcome.error.code);
        if (outcome.error.code === 'session_expired') this.#startSession(true);
      }
      answer(outcome);
    } catch (error) {
      this.#error = { code: 'internal_error', message: `The payment failed unexpectedly (${error instanceof SdkErrorException ? error.code : 'defect'}). Try again, or contact the merchant.` };
      console.error('[svc-iframe-widget] payment failed', error);
      answer({ ok: false, error: this.#error });
    } finally {
      this.#setPaying(false);
    }
  }

  async #attempt({ amount, currency, billingAddress }: PayMessage): Promise<Outcome> {
    const state = await this.#session.settled();
    if (state.status === 'error') return { ok: false, error: state.error };
    if (state.status !== 'ready') return { ok: false, error: { code: 'not_configured', message: 'The payment form has not started yet. Call ServiceFrontEndSDK.config() and init() before pay().' } };
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
    this.channel.send({ type: 'paying', isPaying: paying });
  }

  #log(event: string, detail?: unknown): void {
    if (this.#debug) debugLog('svc-iframe-widget', event, detail);
  }
}
